// pi's own view of a session file: its SessionManager opens the file and builds the context it
// would continue from; the person's and the assistant's text of it, one role's consecutive
// messages joined by a blank line, as JSON on stdout.
// Usage: node pi-own-view.mjs <file URL of pi's dist/index.js> <session file>
const [, , pi, file] = process.argv;
const { SessionManager } = await import(pi);
const context = SessionManager.open(file).buildSessionContext();
const turns = [];
for (const message of context.messages) {
  if (message.role !== "user" && message.role !== "assistant") continue;
  const text = (
    typeof message.content === "string"
      ? message.content
      : message.content
          .filter((part) => part.type === "text")
          .map((part) => part.text.trim())
          .filter((part) => part.length > 0)
          .join("\n\n")
  ).trim();
  if (!text) continue;
  const last = turns[turns.length - 1];
  if (last && last.role === message.role) last.text += "\n\n" + text;
  else turns.push({ role: message.role, text });
}
process.stdout.write(JSON.stringify(turns));
