// The top level and the tools: the lab's Python in Pyodide.
importScripts("python.js");
serve(startPython(), (lab, {call, args}) => lab[call](...args));
