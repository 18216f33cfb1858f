// The student's own program at the top level: consulted into a fresh SWI-Prolog (program.pl),
// its goals read by SWI-Prolog's reader from the text typed, each within an inference bound.
importScripts("python.js", "prolog.js");

const LIMIT = 10000000;  // inferences a load or a goal may take
const MOST = 10;  // answers shown of a goal
const LINES = 400;  // lines of output (a trace's included) shown of a load or a goal
let prolog = null;
let loaded = null;  // the program's name and text, to load afresh after a crash
let printed = [];
const output = (text) => printed.push(text.replace(/^(ERROR: |Warning: )?\[Thread main\] ?/, "$1"));
const siteText = (file) => fetch(file).then((response) => {
  if (!response.ok) throw new Error(`cannot load ${file}: ${response.status}`);
  return response.text();
});
const pageText = siteText("program.pl");
const helperText = siteText("minimax_helper.pl");  // the lab's, for `:- [minimax_helper].`

// What was printed since the last call, at most LINES lines, and how it ended.
function said(end) {
  const lines = printed.splice(0);
  const shown = lines.slice(0, LINES);
  if (lines.length > LINES) shown.push(`% ... ${lines.length - LINES} more lines not shown`);
  return JSON.stringify({out: shown.join("\n"), end});
}

const calls = {
  async load(name, text) {
    loaded = [name, text];
    prolog = await freshProlog(output);  // a fresh one: nothing of a program loaded before
    prolog.write("/page/program.pl", await pageText);
    const path = "/student/" + (name.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "") || "program.pl");
    prolog.write("/student/minimax_helper.pl", await helperText);
    prolog.write(path, text);
    prolog.line("load_files('/page/program.pl', [silent(true)]), Line = \"\"", "");
    printed = [];
    return said(prolog.line(`atom_string(File, Text), page:page_load(File, ${LIMIT}, End), ` +
                            "atom_string(End, Line)", path));
  },
  async ask(goal) {
    if (!prolog) return JSON.stringify({out: "", end: "none"});
    const end = prolog.line(`page:page_ask(Text, ${LIMIT}, ${MOST}, End), atom_string(End, Line)`,
                            goal);
    if (!end.startsWith("error: ")) return said(end);
    printed.splice(0);  // SWI-Prolog itself ended (a halt it could not refuse): start afresh
    await calls.load(...loaded);
    printed = ["% stopped: SWI-Prolog ended (" + end.slice(7, 200) + "); it starts afresh, " +
               "your program loaded again"];
    return said("restarted");
  },
};

serve(Promise.all([prologFiles, pageText, helperText]), (_, {call, args}) => calls[call](...args));
