// clique's extension for pi, loaded per run with `pi -e`: it reports pi's own state to the clique
// engine that started the session (POST /api/sessions/<id>/hook) with the session's token from the
// pane's environment. It posts a few small fields, never a prompt or an answer, and a post that
// fails changes nothing in pi. node:http, not fetch: no proxy that pi may set up sees the token.
import { request } from "node:http";

const url = process.env.CLIQUE_URL;
const session = process.env.CLIQUE_SESSION;
const token = process.env.CLIQUE_ATTENTION_TOKEN;

// One post at a time, in order: a report must not overtake the one before it.
let queue = Promise.resolve();

function post(event, delayMillis = 0) {
  if (!url || !session || !token || !url.startsWith("http://")) return;
  const body = JSON.stringify(event);
  queue = queue
    .then(() => new Promise((done) => setTimeout(done, delayMillis)))
    .then(() => new Promise((done) => send(body, done)));
}

function send(body, done) {
  const req = request(`${url}/api/sessions/${encodeURIComponent(session)}/hook`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      Authorization: `Bearer ${token}`,
    },
    timeout: 2000,
  });
  req.on("timeout", () => req.destroy());
  req.on("error", () => done());
  req.on("response", (res) => {
    res.resume();
    res.on("end", done);
    res.on("error", done);
  });
  req.on("close", done);
  req.end(body);
}

function firstLine(text, max) {
  return cut(String(text ?? "").split("\n")[0].trim(), max);
}

// A dialog's title may take several lines (a command, then "Allow?"): all of it, on one line.
function oneLine(text, max) {
  return cut(String(text ?? "").replace(/\s+/g, " ").trim(), max);
}

function cut(line, max) {
  return line.length > max ? line.slice(0, max) : line;
}

export default function (pi) {
  // The error a run ended on; pi may retry after agent_end, so only agent_settled says it stayed.
  let failure = null;
  pi.on("agent_start", () => {
    failure = null;
    post({ pi_event: "agent_start" });
  });
  pi.on("tool_call", (event) => {
    const input = event.input ?? {};
    const detail = input.command ?? input.path ?? input.file_path ?? "";
    post({ pi_event: "tool_call", tool: firstLine(event.toolName, 100), detail: firstLine(detail, 300) });
  });
  pi.on("agent_end", (event) => {
    const messages = event.messages ?? [];
    const last = messages[messages.length - 1];
    failure =
      last && last.role === "assistant" && last.stopReason === "error"
        ? firstLine(last.errorMessage || "error", 300)
        : null;
  });
  pi.on("agent_settled", (event) => {
    post({ pi_event: "agent_settled", aborted: !!event.aborted, error: event.aborted ? null : failure });
  });
  pi.on("ui_prompt_start", (event) => {
    post({ pi_event: "ui_prompt_start", kind: firstLine(event.kind, 20), title: oneLine(event.title, 300) });
  });
  // A dialog closes on the person's key, which the engine counts as input that ends the last
  // report: posted at once, this report could land before that key and be ended by it.
  pi.on("ui_prompt_end", (_event, ctx) => {
    post({ pi_event: "ui_prompt_end", idle: ctx.isIdle() }, 250);
  });
}
