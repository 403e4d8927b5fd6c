// One MCP session per token with the official TypeScript SDK client over Streamable HTTP: connect, list the tools,
// call `search`, and print what came back as one JSON line per token. McpServerIT runs this and judges the output.
// Usage: node client.mjs <mcp-url> <query> <token>...
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, query, ...tokens] = process.argv.slice(2);
for (const token of tokens) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "corpora-it", version: "1.0.0" });
  await client.connect(transport);
  const tools = await client.listTools();
  const search = await client.callTool({ name: "search", arguments: { query, topK: 5 } });
  const invalid = await client.callTool({ name: "search", arguments: { query: "", topK: 500 } });
  const resources = await client.listResources();
  console.log(JSON.stringify({
    server: client.getServerVersion(),
    protocolVersion: transport.protocolVersion ?? null,
    tools: tools.tools.map((t) => t.name),
    search,
    invalid,
    resources: resources.resources.map((r) => r.uri),
  }));
  await client.close();
}
