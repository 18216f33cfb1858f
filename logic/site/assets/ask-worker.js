// A SWI-Prolog in a worker of its own, for the check (check-worker.js): the check's own, which
// asks the questions it is sent while the check's Python judges those before, and its fresh
// one, which asks the whole program's. Its first message is {code, data}, the check worker's
// compiled SWI-Prolog and its files; each next, JSON: {files: {path: text}} written in its file
// system, then {goals: [[goal, text], ...]} each run in turn (prolog.js's `line`), its line
// posted as it comes ({index, line}, numbered across messages).
let made = null;
let asked = 0;
let queue = Promise.resolve();

onmessage = ({data}) => {
  if (data.code) {
    self.givenProlog = data;
    importScripts("prolog.js");
    made = freshProlog();
    return;
  }
  const {files = {}, goals = []} = JSON.parse(data);
  queue = queue.then(async () => {
    let prolog = null;
    let failed = null;
    try {
      prolog = await made;
      for (const [path, text] of Object.entries(files)) prolog.write(path, text);
    } catch (error) {
      failed = `error: the SWI-Prolog could not start: ${error}`;
    }
    for (const [goal, text] of goals) {
      postMessage({index: asked++, line: failed || prolog.line(goal, text)});
    }
  });
};
