#!/usr/bin/env python3
"""Starts an installed `repochart` (the command given, as a client would: `repochart`,
`npx repochart`, `uvx --from WHEEL repochart`), speaks MCP over its stdio and checks the
answers: `initialize`, then `tools/list` (the twelve tools), then one tool call.

    smoke_mcp.py REPO COMMAND [ARG ...]
"""
import json
import subprocess
import sys

repo, command = sys.argv[1], sys.argv[2:]
proc = subprocess.Popen(command + ["serve", "--repo", repo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def send(message):
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def answer(id_):
    for line in proc.stdout:
        message = json.loads(line)
        if message.get("id") == id_:
            return message
    raise SystemExit(f"the server closed its output before answering {id_}")


send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "ci-smoke", "version": "1"}}})
init = answer(1)["result"]
assert init["serverInfo"]["name"] == "repochart", init
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
tools = sorted(t["name"] for t in answer(2)["result"]["tools"])
expected = sorted(["repo_overview", "dependency_graph", "dependency_path", "change_impact", "search_symbols", "get_symbol",
                   "find_implementations", "find_references", "file_outline", "read_source", "read_symbol", "search_text"])
assert tools == expected, tools
send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "repo_overview", "arguments": {}}})
overview = answer(3)["result"]
assert not overview.get("isError") and overview["content"][0]["text"].startswith("repo "), overview
proc.stdin.close()
proc.wait(timeout=30)
print(f"ok: {' '.join(command)}: initialize, {len(tools)} tools, repo_overview")
