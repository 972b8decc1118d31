// Drives `clique mcp` with the official TypeScript SDK client, whose callTool validates every
// result against the tool's outputSchema. Usage: node ts-sdk-client.mjs <session-id> <command> [args...]
// Prints one JSON line: the tool names and each call's result; exits 1 on any failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [sessionId, command, ...args] = process.argv.slice(2);
if (!sessionId || !command) {
  console.error("usage: node ts-sdk-client.mjs <session-id> <command> [args...]");
  process.exit(2);
}

const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "clique-conformance-ts", version: "0" });

try {
  await client.connect(transport);
  const listed = await client.listTools();
  const calls = [
    ["list_sessions", {}],
    ["get_session", { id: sessionId }],
    ["wait", { id: sessionId, timeout: 2 }],
    ["preview_pane", { id: sessionId, lines: 5 }],
    ["conversation", { id: sessionId }],
  ];
  const results = {};
  for (const [name, toolArgs] of calls) {
    const result = await client.callTool({ name, arguments: toolArgs });
    results[name] = {
      isError: result.isError === true,
      structuredContent: result.structuredContent ?? null,
      text: result.content?.[0]?.text ?? null,
    };
  }
  console.log(
    JSON.stringify({
      protocolVersion: transport.protocolVersion ?? null,
      server: client.getServerVersion(),
      tools: listed.tools.map((tool) => tool.name),
      results,
    }),
  );
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
