// Pyodide with the lab's Python, in a worker: the site's own files only (site.json lists them).
async function startPython() {
  const site = await (await fetch("site.json")).json();
  self.site = site;  // what the site was written with (its check's hint level)
  importScripts("pyodide/pyodide.js");
  const py = await loadPyodide({indexURL: "pyodide/"});
  for (const archive of site.archives) {
    const response = await fetch(archive);
    if (!response.ok) throw new Error(`cannot load ${archive}: ${response.status}`);
    py.unpackArchive(await response.arrayBuffer(), "zip", {extractDir: "/lab"});
  }
  py.runPython("import sys; sys.path.insert(0, '/lab')");
  return py.pyimport(site.module);
}

// Each message {id, call, args} is answered {id, result} (the JSON the Python gives) or
// {id, error}, with {id, progress} on the way where the call tells how far it got;
// {ready: true} or {failed} says how starting went.
function serve(started, callWith) {
  started.then(() => postMessage({ready: true}), (error) => postMessage({failed: String(error)}));
  onmessage = async ({data}) => {
    try {
      const lab = await started;
      const tell = (...progress) => postMessage({id: data.id, progress});
      postMessage({id: data.id, result: JSON.parse(await callWith(lab, data, tell))});
    } catch (error) {
      postMessage({id: data.id, error: String(error)});
    }
  };
}
