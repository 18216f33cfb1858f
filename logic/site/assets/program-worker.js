// The student's own program at the top level: consulted into a fresh SWI-Prolog (program.pl),
// its goals read by SWI-Prolog's reader from the text typed, each within an inference bound.
importScripts("python.js", "prolog.js", "tracer.js");  // tracer.js: COMMANDS, HELP, UNKNOWN

const LIMIT = 10000000;  // inferences a load or a goal may take
const MOST = 10;  // answers shown of a goal
const LINES = 400;  // lines of output (a trace's included) shown of a load or a goal
let prolog = null;
let loaded = null;  // the program's name and text, to load afresh after a crash
let printed = [];
let stepping = null;  // the goal stepped: its text, spy points, mode, commands so far, transcript
const output = (text) => printed.push(text.replace(/^(ERROR: |Warning: )?\[Thread main\] ?/, "$1"));
const siteText = (file) => fetch(file).then((response) => {
  if (!response.ok) throw new Error(`cannot load ${file}: ${response.status}`);
  return response.text();
});
const pageText = siteText("program.pl");
const helperText = siteText("minimax_helper.pl");  // the lab's, for `:- [minimax_helper].`
const steppingText = siteText("stepping.pl");  // SWI-Prolog's tracer a key at a time

// What was printed since the last call, at most LINES lines, and how it ended.
function said(end, more = {}) {
  const lines = printed.splice(0);
  const shown = lines.slice(0, LINES);
  if (lines.length > LINES) shown.push(`% ... ${lines.length - LINES} more lines not shown`);
  return JSON.stringify({out: shown.join("\n"), end, ...more});
}

// SWI-Prolog itself ended or was lost (a halt it could not refuse, a crash of its
// WebAssembly: `error` is what its last call threw): a fresh one, the program loaded again.
async function afresh(error, before = "") {
  printed.splice(0);
  stepping = null;
  await calls.load(...loaded);
  printed = [before + "% stopped: SWI-Prolog ended (" + error.slice(7, 200) + "); it starts " +
             "afresh, your program loaded again"];
  return said("restarted", {defined: calls.defined()});
}


// One run of the stepped goal with its commands so far (stepping.pl replays them): the
// commands, the spy points and the mode on the first three lines of the text, then the goal.
async function stepRun() {
  printed = [];
  const text = [stepping.keys.join(","), stepping.spied.join(","), stepping.mode, stepping.goal];
  const end = prolog.line(`page:page_step_lines(Text, ${LIMIT}, End), atom_string(End, Line)`,
                          text.join("\n"));
  if (end.startsWith("error: ")) return afresh(end, stepping.transcript);  // after its key
  const out = printed.splice(0).join("\n").replace(/\n$/, "");
  stepping.waits = end;
  stepping.transcript += end === "wait" ? out + " ? " : end === "answer" ? out + " " : out;
  const waiting = end === "wait" || end === "answer";
  const shown = stepping.transcript;
  if (!waiting) stepping = null;
  return JSON.stringify({out: shown, end: waiting ? "waiting" : end});
}

const calls = {
  // The program's predicates, Name/Arity, for the page's top level's spy/1.
  defined() {
    if (prolog === null) return [];
    const lines = prolog.line("page:page_defined(Line)", "");
    return lines.startsWith("error: ") ? [] : lines.split("\n").filter(Boolean);
  },
  async load(name, text) {
    loaded = [name, text];
    prolog = await freshProlog(output);  // a fresh one: nothing of a program loaded before
    prolog.write("/page/program.pl", await pageText);
    prolog.write("/page/stepping.pl", await steppingText);
    const path = "/student/" + (name.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "") || "program.pl");
    prolog.write("/student/minimax_helper.pl", await helperText);
    prolog.write(path, text);
    prolog.line("load_files('/page/program.pl', [silent(true)]), Line = \"\"", "");
    printed = [];
    const end = prolog.line(`atom_string(File, Text), page:page_load(File, ${LIMIT}, End), ` +
                            "atom_string(End, Line)", path);
    return said(end, {defined: calls.defined()});
  },
  // The goal typed; `spying`: the page's top level's spy points ({spied: [Name/Arity...],
  // debugging}), which a stepped goal leaps to, and in debug mode leaps to at once.
  async ask(goal, spying = {spied: [], debugging: false}) {
    if (!prolog) return JSON.stringify({out: "", end: "none"});
    const debug = spying.debugging && spying.spied.length > 0;
    const end = prolog.line(`page:page_ask(Text, ${LIMIT}, ${MOST}, ${debug}, End), ` +
                            "atom_string(End, Line)", goal);
    if (end === "step" || end === "leap") {  // after trace., or in debug mode: a key at a time
      stepping = {goal, keys: [], spied: spying.spied, mode: end === "leap" ? "leap" : "creep",
                  transcript: "", waits: null};
      return stepRun();
    }
    return end.startsWith("error: ") ? afresh(end) : said(end);
  },
  // One more key for the stepped goal: a command at its port, or `;` after an answer.
  async key(typed) {
    if (!stepping) return JSON.stringify({out: "", end: "none"});
    if (stepping.waits === "answer") {
      if (typed !== ";") {
        const shown = stepping.transcript + ".";
        stepping = null;
        return JSON.stringify({out: shown, end: "answered"});
      }
      stepping.transcript += ";\n";
      stepping.keys.push("redo");
      return stepRun();
    }
    const command = COMMANDS[typed];
    if (!command) {
      stepping.transcript += "\n" + UNKNOWN + "\n" + stepping.transcript
        .split("\n").pop();
      return JSON.stringify({out: stepping.transcript, end: "waiting"});
    }
    const line = stepping.transcript.split("\n").pop();
    stepping.transcript += command + "\n";
    if (command === "help") {
      stepping.transcript += HELP + "\n" + line;
      return JSON.stringify({out: stepping.transcript, end: "waiting"});
    }
    if (command === "abort") {
      const shown = stepping.transcript + "% Execution Aborted";
      stepping = null;
      return JSON.stringify({out: shown, end: "aborted"});
    }
    stepping.keys.push(command);
    return stepRun();
  },
};

serve(Promise.all([prologFiles, pageText, helperText, steppingText]), (_, {call, args}) => calls[call](...args));
