// The check's fresh SWI-Prolog, in a worker of its own: the harness and the student's file
// loaded in an SWI-Prolog that is never given a lab answer, asking the questions of the whole
// program it is sent (the end-to-end sample) in turn, on another core while the check's own
// asks the rest; each reply posted as it comes ({index, line}, numbered across messages).
// Its first message is {code, data}, the check worker's compiled SWI-Prolog and its files;
// the next, JSON: {files: {path: text}, goals (the harness's consult, the file's load), answer
// (the goal that asks one question, Text), questions}; any later: {questions}.
let made = null;
let asking = null;
let asked = 0;

const start = async ({files, goals, answer}) => {
  try {
    const prolog = await made;
    for (const [path, text] of Object.entries(files)) prolog.write(path, text);
    for (const goal of goals) prolog.line(goal, "");
    return (question) => prolog.line(answer, question);
  } catch (error) {
    const said = `error: the fresh SWI-Prolog could not start: ${error}`;
    return () => said;
  }
};

onmessage = ({data}) => {
  if (data.code) {
    self.givenProlog = data;
    importScripts("prolog.js");
    made = freshProlog();
    return;
  }
  const plan = JSON.parse(data);
  asking = (asking || start(plan)).then((ask) => {
    for (const question of plan.questions) postMessage({index: asked++, line: ask(question)});
    return ask;
  });
};
