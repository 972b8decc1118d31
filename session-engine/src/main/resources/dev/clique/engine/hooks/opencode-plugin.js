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
  // One post at a time, without holding opencode up: while one is on its way, only the newest
  // event waits (the newest says the state), and a status the engine was just told is not told again.
  let sending = false
  let waiting = null
  let last = ""
  const send = async () => {
    sending = true
    while (waiting) {
      const body = JSON.stringify(waiting)
      waiting = null
      await fetch(url, {
        method: "POST",
        headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(2000),
      }).catch(() => {})
    }
    sending = false
  }
  const post = (event) => {
    const said = event.type + " " + (event.properties.status?.type ?? event.properties.id ?? "")
    if (said === last && event.type === "session.status") return
    last = said
    waiting = event
    if (!sending) send()
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
