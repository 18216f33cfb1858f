// SWI-Prolog compiled to WebAssembly, in a worker: its files fetched once from the site, and a
// fresh SWI-Prolog made from them on demand (no network), its output sent to `output`.
importScripts("swipl/swipl-web.js");

function makeDirs(fs, path) {
  let folder = "";
  for (const part of path.split("/").slice(1, -1)) {
    folder += "/" + part;
    if (!fs.analyzePath(folder).exists) fs.mkdir(folder);
  }
}

// A worker given its parent's compiled code and data (`self.givenProlog`, set before this
// file is imported: the check's fresh SWI-Prolog) fetches and compiles nothing.
const given = self.givenProlog;
const prologFiles = given ? Promise.resolve([null, given.data])
  : Promise.all(["swipl/swipl-web.wasm", "swipl/swipl-web.data"].map(async (file) => {
    const response = await fetch(file);
    if (!response.ok) throw new Error(`cannot load ${file}: ${response.status}`);
    return response.arrayBuffer();
  }));
// Its WebAssembly compiled once: each fresh SWI-Prolog is a new instance of the same code.
const prologCode = given ? Promise.resolve(given.code)
  : prologFiles.then(([wasm]) => WebAssembly.compile(wasm));

// A fresh SWI-Prolog: write(path, text) puts a file in its file system; line(goal, text)
// runs `goal` once with Text bound to `text` and gives its Line (a string), or "error: ...".
async function freshProlog(output = () => {}) {
  const [[, data], code] = await Promise.all([prologFiles, prologCode]);
  const instantiateWasm = (imports, done) => {
    WebAssembly.instantiate(code, imports).then(done);
    return {};
  };
  const swipl = await SWIPL({arguments: ["-q", "--stack-limit=256m"],
                             locateFile: (file) => "swipl/" + file,
                             instantiateWasm, getPreloadedPackage: () => data.slice(0),
                             print: output, printErr: output});
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
