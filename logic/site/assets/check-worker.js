// The check: the lab's Python in Pyodide asks the student's program questions in SWI-Prolog
// compiled to WebAssembly, a fresh one for each check, through the harness (a line in, a line out).
importScripts("python.js", "swipl/swipl-web.js");

function makeDirs(fs, path) {
  let folder = "";
  for (const part of path.split("/").slice(1, -1)) {
    folder += "/" + part;
    if (!fs.analyzePath(folder).exists) fs.mkdir(folder);
  }
}

// SWI-Prolog's files, fetched once: each check's fresh SWI-Prolog needs no network.
const prologFiles = Promise.all(["swipl/swipl-web.wasm", "swipl/swipl-web.data"].map(
  async (file) => {
    const response = await fetch(file);
    if (!response.ok) throw new Error(`cannot load ${file}: ${response.status}`);
    return response.arrayBuffer();
  }));

async function freshProlog() {
  const [wasm, data] = await prologFiles;
  const swipl = await SWIPL({arguments: ["-q", "--stack-limit=256m"],
                             locateFile: (file) => "swipl/" + file,
                             wasmBinary: wasm, getPreloadedPackage: () => data.slice(0),
                             print: () => {}, printErr: () => {}});
  return {
    write(path, text) { makeDirs(swipl.FS, path); swipl.FS.writeFile(path, text); },
    line(goal, text) {
      try {
        const found = swipl.prolog.query(goal, {Text: text}).once();
        const line = found && found.Line !== undefined && JSON.parse(JSON.stringify(found.Line));
        return typeof line === "string" ? line  // a Prolog string comes as a PrologString
          : "error: " + JSON.stringify(found).slice(0, 500);
      } catch (error) {
        return "error: " + String(error);
      }
    },
  };
}

serve(Promise.all([startPython(), prologFiles]).then(([lab]) => lab),
      async (lab, {args}, tell) => {
        const [name, text, perCheck] = args;
        return lab.check(await freshProlog(), name, text, perCheck, tell, self.site.hints);
      });
