// The check: the lab's Python in Pyodide asks the student's program questions in SWI-Prolog
// compiled to WebAssembly, a fresh one for each check, through the harness (a line in, a line out).
importScripts("python.js", "prolog.js");

serve(Promise.all([startPython(), prologFiles]).then(([lab]) => lab),
      async (lab, {args}, tell) => {
        const [name, text, perCheck] = args;
        return lab.check(await freshProlog(), name, text, perCheck, tell, self.site.hints);
      });
