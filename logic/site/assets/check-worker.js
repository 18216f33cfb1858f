// The check: the lab's Python in Pyodide asks the student's program questions in SWI-Prolog
// compiled to WebAssembly, a fresh one for each check, through the harness (a line in, a line
// out); the questions of the whole program go to a second fresh SWI-Prolog, never given a lab
// answer. Where Python can wait for another worker (WebAssembly's stack switching), each
// SWI-Prolog is a worker of its own (ask-worker.js): the check's asks the next questions while
// Python judges those before, the fresh one asks the whole program's on the other core; else
// (or with check.html?one-worker) both are in this worker, asked in turn.
importScripts("python.js", "prolog.js");

const switching = typeof WebAssembly.Suspending === "function" &&
  !new URLSearchParams(self.location.search).has("one-worker");
const python = startPython();

// A SWI-Prolog's worker: post(message, goals) sends it a message (JSON, ask-worker.js) with
// `goals` goals and gives the first's number; since(number) is a promise of the lines (JSON)
// it gave from that goal's on: those come so far, at least one ("error: ..." each if its
// worker failed); end() ends it.
async function askWorker() {
  const [[, data], code] = await Promise.all([prologFiles, prologCode]);
  const worker = new Worker("ask-worker.js");
  worker.postMessage({code, data});
  const lines = [];
  let count = 0;
  let waiting = null;
  let failed = null;
  const wake = () => { if (waiting) { waiting(); waiting = null; } };
  worker.onmessage = ({data: {index, line}}) => { lines[index] = line; wake(); };
  worker.onerror = (event) => {
    failed = `error: the SWI-Prolog's worker failed: ${event.message}`;
    wake();
  };
  return {
    post(message, goals) {
      const first = count;
      count += goals;
      worker.postMessage(message);
      return first;
    },
    async since(number) {
      while (lines[number] === undefined && !failed) await new Promise((done) => waiting = done);
      const given = [];
      for (let at = number; lines[at] !== undefined || (failed && at === number); at++) {
        given.push(lines[at] === undefined ? failed : lines[at]);
        lines[at] = null;  // handed over: kept no longer
      }
      return JSON.stringify(given);
    },
    end() { worker.terminate(); },
  };
}

// The next check's SWI-Prologs, made ahead with the harness consulted (while Python starts,
// then after each check), so that a check starts at once: its own and the fresh one.
const prepared = async () => {
  const made = () => switching ? askWorker() : freshProlog();
  const [lab, prolog, fresh] = await Promise.all([python, made(), made()]);
  for (const each of [prolog, fresh]) {
    if (switching) each.post(lab.harness_plan(), 1);
    else lab.prepare(each);
  }
  return [prolog, fresh];
};
let next = prepared();

serve(Promise.all([python, next]).then(([lab]) => lab), async (lab, {args}, tell) => {
  const [name, text, perCheck] = args;
  const [prolog, fresh] = await next;
  try {
    return switching
      ? await lab.check.callPromising(prolog, name, text, perCheck, tell, self.site.hints,
                                      fresh, true)
      : lab.check(prolog, name, text, perCheck, tell, self.site.hints, fresh, false);
  } finally {
    if (switching) {
      prolog.end();
      fresh.end();
    }
    next = prepared();
  }
});
