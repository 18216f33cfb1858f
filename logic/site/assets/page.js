// The pages' side: a worker that can be stopped (ended, and started afresh) and the forms.
class Runner {
  constructor(script, status, loading = "loading Python (the first time takes a few seconds)...") {
    this.script = script;
    this.status = status;
    this.loading = loading;
    this.start();
  }
  start() {
    this.worker = new Worker(this.script);
    this.pending = new Map();
    this.number = 0;
    this.say(this.loading, "loading");
    // A worker that fails while asked (its WebAssembly lost) answers nothing more: where the
    // page says what then (`lost`), it is ended and started afresh.
    this.worker.onerror = (event) => {
      if (!this.lost || this.pending.size === 0) return;
      event.preventDefault();
      const why = "% stopped: the worker failed (" + (event.message || "an error") + "); it " +
        "starts afresh";
      this.stop(why);
      if (this.lost) this.lost(why);
    };
    this.worker.onmessage = ({data}) => {
      if (data.ready) return this.say("ready", "ready");
      if (data.failed) return this.say("could not start: " + data.failed, "failed");
      const waiting = this.pending.get(data.id);
      if (data.progress) return waiting && waiting.progress && waiting.progress(...data.progress);
      this.pending.delete(data.id);
      if (this.pending.size === 0 && this.status.dataset.state === "busy") this.say("ready", "ready");
      if (waiting) data.error ? waiting.reject(new Error(data.error)) : waiting.resolve(data.result);
    };
  }
  say(text, state) {
    this.status.textContent = text;
    this.status.dataset.state = state;
  }
  call(call, ...args) { return this.watched(null, call, ...args); }
  // A call whose worker tells how far it got: progress(...) with what it tells.
  watched(progress, call, ...args) {
    const id = ++this.number;
    if (this.status.dataset.state === "ready") this.say("working... (Stop ends it)", "busy");
    return new Promise((resolve, reject) => {
      this.pending.set(id, {resolve, reject, progress});
      this.worker.postMessage({id, call, args});
    });
  }
  stop(why) {
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(new Error(why));
    this.start();
  }
}

function byId(id) { return document.getElementById(id); }

// The service worker (offline.js) keeps what the page fetches, once it controls the page: it
// is waited for (a few seconds at most) before the worker starts. Where there is none (a page
// opened as a file, or over plain http from another machine) the site works online only.
async function offline() {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("offline.js");
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await Promise.race([
      new Promise((done) => navigator.serviceWorker.addEventListener(
        "controllerchange", done, {once: true})),
      new Promise((done) => setTimeout(done, 3000))]);
  } catch (error) {
    console.warn("the site will not work offline:", error);
  }
}

async function topLevel() {
  const transcript = byId("transcript");
  // A line of the transcript, at its end or just after `after` (a goal asked while another
  // was being answered gets its answers under it, not under the goal asked last): the line.
  const show = (text, kind, after) => {
    const line = document.createElement("div");
    line.className = kind;
    line.textContent = text;
    if (after) after.after(line); else transcript.append(line);
    transcript.scrollTop = transcript.scrollHeight;
    return line;
  };
  // The page's spy points, the Python top level's (each of its replies says them), which a
  // goal of the program leaps to; the program's predicates are told to it, for spy/1.
  let spying = {spied: [], debugging: false};
  let runner = null;
  const tell = (defined) => runner && runner.call("program_loaded", JSON.stringify(defined));
  const program = yourProgram(show, tell);  // ready at once: a file may be picked before Python
  await offline();
  runner = new Runner("lab-worker.js", byId("status"));
  tell(program.defined());
  const python = async (call, ...args) => {
    const answer = await runner.call(call, ...args);
    if (answer.spying) spying = answer.spying;
    return answer;
  };
  // A stepped goal (after `trace.`) waits at a port for a key: each key typed in the goal's
  // box (or clicked in #ports) runs it again with the keys so far; its transcript is `stepped`.
  // Keys are taken one at a time, in the order typed: those typed after the goal's end are the
  // goal's box's new text, as a terminal reads them at the next prompt.
  let stepped = null, steppedBy = null;
  const ports = byId("ports"), typed = [];
  let taking = false;
  const step = async (key) => {
    typed.push(key);
    if (taking) return;
    taking = true;
    while (typed.length && stepped !== null) {
      const next = typed.shift();
      try {
        const answer = steppedBy === "program" ? await program.key(next)
          : await python("key", next, steppedBy);
        stepped.textContent = (answer.out || answer.err).replace(/\n$/, "");
        if (!answer.waiting) stepped = null;
      } catch (error) {
        show(String(error.message), "error", stepped);
        stepped = null;
      }
    }
    const left = typed.splice(0).filter((key) => key !== "\n").join("");
    if (left) byId("goal").value = left;
    taking = false;
    ports.hidden = stepped === null;
    transcript.scrollTop = transcript.scrollHeight;
  };
  byId("goal").addEventListener("keydown", (event) => {
    if ((stepped === null && !taking) || event.key.length !== 1 || event.ctrlKey
        || event.metaKey) return;
    event.preventDefault();
    step(event.key);
  });
  for (const button of ports.querySelectorAll("button")) {
    button.addEventListener("click", () => stepped !== null && step(button.dataset.key));
  }
  byId("ask").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (stepped !== null || taking) return step("\n");
    const goal = byId("goal").value.trim();
    if (!goal) return;
    let last = show("?- " + goal, "goal");
    try {
      const engine = byId("engine").value;
      let answer = engine === "program" ? await program.ask(goal, spying)
        : await python("query", goal, engine);
      let by = engine;  // the top level that answers: spy/1 and its kin are the Python one's
      if (answer.session) [answer, by] = [await python("query", goal, "reference"), "reference"];
      if (answer.consult) return await program.consult(last);
      if (answer.out) last = show(answer.out.replace(/\n$/, ""), "answer", last);
      if (answer.err) show(answer.err.replace(/\n$/, ""), "error", last);
      if (answer.waiting) [stepped, steppedBy] = [last, by];
      ports.hidden = stepped === null;
    } catch (error) {
      show(String(error.message), "error", last);
    }
  });
  byId("stop").addEventListener("click", () => {
    stepped = null;
    ports.hidden = true;
    runner.stop("% stopped: Python starts afresh");
    spying = {spied: [], debugging: false};
    tell(program.defined());
    program.stop();
  });
  for (const kind of ["board", "explain", "trace", "tree"]) {
    byId("view-" + kind).addEventListener("click", async () => {
      const out = byId("view");
      out.textContent = "working...";
      try {
        const shown = await runner.call("view", kind, byId("position").value.trim(),
                                        byId("player").value, byId("search").value);
        if (shown.error) out.textContent = shown.error; else out.innerHTML = shown.html;
      } catch (error) {
        out.textContent = String(error.message);
      }
    });
  }
}

// The student's own program (program-worker.js), in a worker started at its first load: a
// file picked or typed, loaded by Load or by [file]. at the prompt, asked there.
function yourProgram(show, tell) {
  let runner = null;
  let loaded = null;  // the name and text last loaded
  let defined = [];  // its predicates, told to the Python top level (`tell`) for spy/1
  let reloading = null;  // the load again after Stop, until it is done
  const name = () => (byId("program-file").files[0] || {name: "program.pl"}).name;
  const load = async (after) => {
    const text = byId("program").value;
    if (!text.trim()) {
      byId("loaded").textContent = "nothing to load: pick your file or type it above";
      return;
    }
    if (!runner) {
      runner = new Runner("program-worker.js", byId("program-status"), "loading SWI-Prolog...");
      runner.lost = (why) => again(why);
    }
    loaded = [name(), text];
    byId("loaded").textContent = "loading " + loaded[0] + "...";
    try {
      const done = await runner.call("load", ...loaded);
      told(done);
      byId("loaded").textContent = (LOADED[done.end] || (() => done.end))(loaded[0]);
      byId("engine").value = "program";
      const clean = done.end === "loaded" && !/^(ERROR|Warning):/m.test(done.out);
      if (done.out) show(done.out, clean ? "answer" : "error", after);
      if (after) show("% " + byId("loaded").textContent, "answer", after);
    } catch (error) {
      byId("loaded").textContent = String(error.message);
    }
  };
  const told = (done) => {
    if (done.defined) tell(defined = done.defined);
  };
  byId("program-file").addEventListener("change", async () => {
    const file = byId("program-file").files[0];
    if (file) byId("program").value = await file.text();
  });
  byId("program-form").addEventListener("submit", (event) => {
    event.preventDefault();
    load(null);
  });
  // The program loaded again into the fresh SWI-Prolog of a worker started afresh (after
  // Stop, or a worker that failed: `why` is then said in the transcript).
  const again = (why) => {
    if (why) show(why, "error");
    if (!loaded) return;
    const [name] = loaded;
    byId("loaded").textContent = "loading " + name + " again...";
    reloading = runner.call("load", ...loaded).then(
      (done) => { byId("loaded").textContent = (LOADED[done.end] || (() => done.end))(name); },
      (error) => { byId("loaded").textContent = String(error.message); });
  };
  return {
    defined: () => defined,
    async ask(goal, spying) {
      if (!loaded) return {err: "no program is loaded: pick your file or type it under Your " +
                                "program, then Load (or [file]. once it is picked)"};
      await reloading;
      const answer = await runner.call("ask", goal, spying);
      told(answer);
      if (answer.end === "consult") return {consult: true};
      if (answer.end === "session") return {session: true};
      const failed = answer.end === "error" || answer.end === "syntax";
      return failed ? {out: "", err: answer.out}
        : {out: answer.out, err: "", waiting: answer.end === "waiting"};
    },
    // One more key for a goal stepped after trace.: its whole transcript so far.
    async key(typed) {
      const answer = await runner.call("key", typed);
      told(answer);
      return {out: answer.out, err: "", waiting: answer.end === "waiting"};
    },
    // [file]. or consult(file).: the file picked, read again and loaded; else how to pick one.
    async consult(after) {
      const file = byId("program-file").files[0];
      if (!file) {
        show("no file is picked: pick yours with \"your file\" under Your program (or type " +
             "it there and press Load)", "error", after);
        return;
      }
      byId("program").value = await file.text();
      await load(after);
    },
    // Stop: a fresh SWI-Prolog, the program loaded again; a goal asked meanwhile waits for it.
    stop() {
      if (!runner) return;
      runner.stop("% stopped: SWI-Prolog starts afresh");
      again();
    },
  };
}

const LOADED = {
  loaded: (name) => `${name} loaded`,
  inferences: (name) => `stopped: loading ${name} ran past the inference bound`,
  error: (name) => `${name} could not be loaded (see the message above)`,
};

async function checkPage() {
  await offline();
  // check.html?one-worker: the fresh SWI-Prolog in the check's own worker, as where Python
  // cannot wait for another (a one-core machine gains nothing from a second)
  const runner = new Runner("check-worker.js" + (new URLSearchParams(location.search)
    .has("one-worker") ? "?one-worker" : ""), byId("status"));
  byId("file").addEventListener("change", async () => {
    const file = byId("file").files[0];
    if (file) byId("source").value = await file.text();
  });
  byId("check-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = byId("file").files[0];
    const report = byId("report");
    const shown = byId("progress");
    const asked = byId("asked");
    byId("log").textContent = "";
    byId("beside").textContent = "";
    byId("summary").textContent = "";
    byId("seconds").textContent = "-";
    byId("fresh").textContent = "";
    asked.textContent = "";
    shown.hidden = true;
    if (!byId("source").value.trim()) {
      report.textContent = "nothing to check: pick your minimax.pl or paste it above";
      return;
    }
    report.textContent = "checking...";
    byId("check").disabled = true;  // one check at a time; Stop ends it
    const progress = (done, planned) => {
      shown.hidden = false;
      shown.max = planned;
      shown.value = done;
      asked.textContent = `asked ${done} of ${planned} questions`;
    };
    const started = performance.now();
    try {
      const checked = await runner.watched(progress, "check", file ? file.name : "minimax.pl",
                                           byId("source").value, Number(byId("sample").value));
      report.textContent = checked.report;
      // the searches beside the lab's, as the report's page draws them (its text escaped)
      byId("beside").innerHTML = checked.beside ? "<h2>your search beside the lab's</h2>" +
        checked.beside : "";
      byId("log").textContent = checked.log;
      byId("summary").textContent = checked.summary;
      byId("summary").dataset.right = String(checked.right);
      byId("fresh").textContent = checked.fresh ? `; the end-to-end sample (${checked.fresh} ` +
        `questions) asked of a fresh SWI-Prolog, ${checked.fresh_apart ? "in a worker of its " +
        "own meanwhile" : "after the rest"}` : "";
      shown.hidden = true;
      asked.textContent = "";
    } catch (error) {
      report.textContent = String(error.message);
      if (asked.textContent) asked.textContent += " when it was stopped";
    } finally {
      byId("check").disabled = false;
    }
    byId("seconds").textContent = ((performance.now() - started) / 1000).toFixed(1);
  });
  byId("stop").addEventListener("click", () => runner.stop(
    "stopped: the check was ended (a file that loops or waits can be stopped so); " +
    "check it again when it is fixed"));
}

// The game: the board is game.js's; each click is answered by the lab's Python in the worker.
async function gamePage() {
  await offline();
  const runner = new Runner("lab-worker.js", byId("status"));
  const setup = () => JSON.stringify(Object.fromEntries(
    ["human", "first", "mode", "scoring", "depth", "engine", "search"].map((name) => {
      const value = byId(name).value;
      return [name, name === "depth" ? (value ? Number(value) : null) : value];
    })));
  let rules = setup();  // the settings of the game under way
  const brain = {
    start: () => runner.call("game_start", rules = setup()),
    click: (state, cell) => runner.call("game_click", rules, state, cell),
    values: (state) => runner.call("game_values", rules, state),
    search: (state) => runner.call("game_search", rules, state),
  };
  const game = playGame(byId("game"), brain);
  byId("stop").addEventListener("click", () => runner.stop("stopped: Python starts afresh"));
  game.newGame();
}
