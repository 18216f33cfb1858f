// The check: the lab's Python in Pyodide asks the student's program questions in SWI-Prolog
// compiled to WebAssembly, a fresh one for each check, through the harness (a line in, a line out).
importScripts("python.js", "prolog.js");

const python = startPython();
// The next check's fresh SWI-Prolog, made ahead with the harness consulted: while Python
// starts, then after each check, so that a check starts at once.
const prepared = async () => {
  const [lab, prolog] = await Promise.all([python, freshProlog()]);
  lab.prepare(prolog);
  return prolog;
};
let next = prepared();

serve(Promise.all([python, next]).then(([lab]) => lab), async (lab, {args}, tell) => {
  const [name, text, perCheck] = args;
  const prolog = await next;
  try {
    return lab.check(prolog, name, text, perCheck, tell, self.site.hints);
  } finally {
    next = prepared();
  }
});
