/** `chatads/mcp`: placeholder until the MCP server lands (issue 8). */
export {};
