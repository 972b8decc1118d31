// Gemini CLI's own view of one chat file: its own loader (loadConversationRecord, from the
// installed bundle) reads the file; what it keeps is printed as turns, as Gemini CLI hands a chat
// back to the model on resume: info, error and warning messages left out, and the user text that
// it writes itself (<session_context>, <hook_context>) or reads as a command (/, ?) too.
// Usage: node gemini-own-view.mjs <file URL of the bundle chunk> <chat file>
const [chunk, file] = process.argv.slice(2);
const gemini = await import(chunk);
const record = await gemini.loadConversationRecord(file);
const ignored = ["/", "?", "<session_context>", "<hook_context>"];
const turns = [];
for (const message of record?.messages ?? []) {
  if (message.type !== "user" && message.type !== "gemini") continue;
  const content = message.content ?? "";
  const text = (
    Array.isArray(content)
      ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("")
      : String(content)
  ).trim();
  if (text === "") continue;
  if (message.type === "user" && ignored.some((prefix) => text.startsWith(prefix))) continue;
  const role = message.type === "user" ? "user" : "assistant";
  const last = turns[turns.length - 1];
  if (last && last.role === role) {
    last.text += "\n\n" + text;
  } else {
    turns.push({ role, text });
  }
}
process.stdout.write(JSON.stringify(turns));
process.exit(0);
