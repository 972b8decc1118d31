// clique's opencode plugin, installed per run through OPENCODE_CONFIG_CONTENT: it tells the clique
// engine this session's state by posting opencode's own events to the session's hook route, with
// the session-bound token of the pane's environment. It never answers for the person.
const url = process.env.CLIQUE_HOOK_URL
const token = process.env.CLIQUE_ATTENTION_TOKEN
const FORWARDED = new Set([
  "session.status",
  "session.idle",
  "session.error",
  "permission.asked",
  "permission.replied",
  "question.asked",
  "question.replied",
  "question.rejected",
])

export const CliqueState = async () => {
  if (!url || !token) return {}
  // opencode goes idle right after a failed turn: the error holds until the next turn starts.
  const failed = new Set()
  // One post at a time, in the order opencode said them, without holding opencode up.
  let posted = Promise.resolve()
  const post = (event) => {
    posted = posted.then(() =>
      fetch(url, {
        method: "POST",
        headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(2000),
      }).catch(() => {}),
    )
  }
  return {
    event: async ({ event }) => {
      if (!event || !FORWARDED.has(event.type)) return
      const properties = event.properties ?? {}
      const session = properties.sessionID
      const status = properties.status?.type
      if (event.type === "session.error") failed.add(session)
      else if (status === "busy") failed.delete(session)
      else if (failed.has(session) && (event.type === "session.idle" || status === "idle")) return
      post({ type: event.type, properties })
    },
  }
}
