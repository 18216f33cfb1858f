// The check: the lab's Python in Pyodide asks the student's program questions in SWI-Prolog
// compiled to WebAssembly, a fresh one for each check, through the harness (a line in, a line
// out). The questions of the whole program go to a second fresh SWI-Prolog, never given a
// lab answer: in a worker of its own (fresh-worker.js), on another core meanwhile, where
// Python can wait for its replies (WebAssembly's stack switching); else in this worker, after
// the rest.
importScripts("python.js", "prolog.js");

const switching = typeof WebAssembly.Suspending === "function" &&
  !new URLSearchParams(self.location.search).has("one-worker");
const python = startPython();

// The fresh SWI-Prolog's worker: fresh.ask(plan) sends it its plan (JSON, fresh-worker.js);
// fresh.since(index) is a promise of the lines it gave (JSON), in order, from that question's
// on: those come so far, at least one ("error: ..." each if its worker failed); end() ends it.
async function freshWorker() {
  const [[, data], code] = await Promise.all([prologFiles, prologCode]);
  const worker = new Worker("fresh-worker.js");
  worker.postMessage({code, data});
  const lines = [];
  let waiting = null;
  let failed = null;
  const wake = () => { if (waiting) { waiting(); waiting = null; } };
  worker.onmessage = ({data: {index, line}}) => { lines[index] = line; wake(); };
  worker.onerror = (event) => { failed = `error: the fresh SWI-Prolog failed: ${event.message}`; wake(); };
  return {
    ask(plan) { worker.postMessage(plan); },
    async since(index) {
      while (lines[index] === undefined && !failed) await new Promise((done) => waiting = done);
      const given = [];
      for (let at = index; lines[at] !== undefined || (failed && at === index); at++) {
        given.push(lines[at] === undefined ? failed : lines[at]);
        lines[at] = null;  // handed over: kept no longer
      }
      return JSON.stringify(given);
    },
    end() { worker.terminate(); },
  };
}

// The next check's SWI-Prologs, made ahead (while Python starts, then after each check) so
// that a check starts at once: its own with the harness consulted, and the fresh one.
const prepared = async () => {
  const [lab, prolog, fresh] = await Promise.all(
    [python, freshProlog(), switching ? freshWorker() : freshProlog()]);
  lab.prepare(prolog);
  if (!switching) lab.prepare(fresh);
  return [prolog, fresh];
};
let next = prepared();

serve(Promise.all([python, next]).then(([lab]) => lab), async (lab, {args}, tell) => {
  const [name, text, perCheck] = args;
  const [prolog, fresh] = await next;
  try {
    return switching
      ? await lab.check.callPromising(prolog, name, text, perCheck, tell, self.site.hints, fresh)
      : lab.check(prolog, name, text, perCheck, tell, self.site.hints, null, fresh);
  } finally {
    if (switching) fresh.end();
    next = prepared();
  }
});
