#!/usr/bin/env python3
"""The official MCP Python SDK (`mcp`) as the client: starts `repochart serve`, initializes,
lists the tools and calls one, and measures `tools/list` as the SDK's users measure it,
`json.dumps(result.model_dump(by_alias=True, mode="json", exclude_none=True),
separators=(",", ":"))`: at most 6,000 bytes, since every byte is context in every
conversation.

    sdk_tools.py BINARY REPO
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BUDGET = 6000
TOOLS = ["repo_overview", "dependency_graph", "dependency_path", "change_impact", "search_symbols", "get_symbol",
         "find_implementations", "find_references", "file_outline", "read_source", "read_symbol", "search_text"]


async def main(binary, repo):
    params = StdioServerParameters(command=binary, args=["serve", "--repo", repo])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "repochart", init.server_info
            listed = await session.list_tools()
            size = len(json.dumps(listed.model_dump(by_alias=True, mode="json", exclude_none=True),
                                  separators=(",", ":")).encode())
            names = [t.name for t in listed.tools]
            assert names == TOOLS, names
            assert size <= BUDGET, f"tools/list is {size} bytes as the SDK writes it; the budget is {BUDGET}"
            result = await session.call_tool("get_symbol", {"symbol": "NoSuchThing"})
            assert result.is_error and "NoSuchThing" in result.content[0].text, result
            print(f"ok: mcp SDK: tools/list {size} bytes (budget {BUDGET}), 12 tools, an error result for an unknown symbol")


asyncio.run(main(sys.argv[1], sys.argv[2]))
