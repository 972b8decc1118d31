// Drives `clique mcp`'s resources with the official TypeScript SDK client, which checks the
// server's capabilities before it subscribes and validates every result it reads.
// Usage: node ts-sdk-resources.mjs <session-id> <command> [args...]
// Prints JSON lines on stdout: first {"phase": "subscribed", ...} with what it listed and read,
// then one {"notification": ...} per notification the server sends, with what a read right after
// showed (a session's state, the ids a list held). Each handler reads before it prints, so two
// notifications sent together may print in either order. A line "done" on stdin ends it with
// {"phase": "done"}. Exits 1 on any failure.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [sessionId, command, ...args] = process.argv.slice(2);
if (!sessionId || !command) {
  console.error("usage: node ts-sdk-resources.mjs <session-id> <command> [args...]");
  process.exit(2);
}

const print = (line) => process.stdout.write(JSON.stringify(line) + "\n");
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "clique-conformance-ts-resources", version: "0" });
const session = `clique://sessions/${sessionId}`;

/** The error a request fails with, as {code, message, data}; null when it succeeds. */
async function refusal(request) {
  try {
    await request();
    return null;
  } catch (error) {
    return { code: error?.code ?? null, message: String(error?.message ?? error), data: error?.data ?? null };
  }
}

try {
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
    const uri = notification.params.uri;
    const read = await client.readResource({ uri }).catch(() => null);
    const shown = read ? JSON.parse(read.contents[0].text) : null;
    const listed = shown?.sessions?.map((s) => s.id) ?? null;
    print({ notification: notification.method, uri, state: shown?.state ?? null, listed });
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async (notification) => {
    const listed = await client.listResources();
    print({ notification: notification.method, uris: listed.resources.map((r) => r.uri) });
  });

  await client.connect(transport);
  const listed = await client.listResources();
  const templates = await client.listResourceTemplates();
  const reads = {};
  for (const uri of ["clique://sessions", session, `${session}/pane`, `${session}/conversation`]) {
    const read = await client.readResource({ uri });
    reads[uri] = {
      uri: read.contents[0].uri,
      mimeType: read.contents[0].mimeType,
      json: JSON.parse(read.contents[0].text),
    };
  }
  const unknownRead = await refusal(() => client.readResource({ uri: "clique://sessions/nobody" }));
  const unknownSubscribe = await refusal(() =>
    client.subscribeResource({ uri: "file:///home/dev/project/notes.txt" }),
  );
  await client.subscribeResource({ uri: session });
  await client.subscribeResource({ uri: "clique://sessions" });
  print({
    phase: "subscribed",
    protocolVersion: transport.protocolVersion ?? null,
    capabilities: client.getServerCapabilities(),
    resources: listed.resources.map((r) => r.uri),
    templates: templates.resourceTemplates.map((t) => t.uriTemplate),
    reads,
    unknownRead,
    unknownSubscribe,
  });

  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === "done") {
      break;
    }
  }
  await client.unsubscribeResource({ uri: session });
  await client.unsubscribeResource({ uri: "clique://sessions" });
  print({ phase: "done" });
  await client.close();
  process.exit(0);
} catch (error) {
  console.error(`ts client failed: ${error?.stack ?? error}`);
  try {
    await client.close();
  } catch {
    // already gone
  }
  process.exit(1);
}
