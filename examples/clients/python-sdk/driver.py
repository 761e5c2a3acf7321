#!/usr/bin/env python3
"""The official MCP Python SDK's client (`mcp` 2.3 from PyPI: `mcp.Client`), under the mcp-tools-conformance
driver contract (docs/client-mode.md): list every page of tools, call each listed tool once with
``inputSchema.examples[0]`` (or ``{}``), answer form elicitation with the schema's defaults and roots with an empty
list, print one JSON line per call on stdout, then list once more through the client's cache, printing
``{"listed": n}`` after each listing.

* HTTP (default): the endpoint URL is the last argument or MCP_CONFORMANCE_URL.
* stdio: MCP_CONFORMANCE_SERVER_COMMAND is a POSIX shell command line, run with ``sh -c``.
* MCP_CONFORMANCE_PROTOCOL_VERSION set to 2025-11-25 or earlier: the client's ``legacy`` mode (the ``initialize``
  handshake); otherwise its default ``auto`` mode (``server/discover`` first).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

CALL_TIMEOUT_S = int(os.environ.get("MCP_CONFORMANCE_CALL_TIMEOUT_MS") or 60_000) / 1000
MAX_LIST_PAGES = 1000
MODERN = "2026-07-28"


def emit(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


async def elicit(_context: Any, params: Any) -> types.ElicitResult:
    schema = getattr(params, "requested_schema", None) or {}
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    content = {name: spec["default"] for name, spec in properties.items() if isinstance(spec, dict) and "default" in spec}
    return types.ElicitResult(action="accept", content=content)


async def roots(_context: Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[])


def target() -> StdioServerParameters | str:
    command = os.environ.get("MCP_CONFORMANCE_SERVER_COMMAND")
    if command:
        return StdioServerParameters(command="sh", args=["-c", command])
    url = sys.argv[-1] if len(sys.argv) > 1 else os.environ.get("MCP_CONFORMANCE_URL")
    if not url:
        sys.exit("usage: driver.py <MCP endpoint URL> (or MCP_CONFORMANCE_URL, or MCP_CONFORMANCE_SERVER_COMMAND)")
    return url


async def list_all(client: Client) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    for _ in range(MAX_LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    return tools


def arguments_for(tool: types.Tool) -> dict[str, Any]:
    examples = (tool.input_schema or {}).get("examples")
    if isinstance(examples, list) and examples and isinstance(examples[0], dict):
        return examples[0]
    return {}


async def main() -> None:
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION")
    mode = "legacy" if version and version < MODERN else "auto"
    async with Client(
        target(),
        mode=mode,
        read_timeout_seconds=CALL_TIMEOUT_S,
        elicitation_callback=elicit,
        list_roots_callback=roots,
    ) as client:
        tools = await list_all(client)
        emit({"listed": len(tools)})
        for tool in tools:
            try:
                result = await asyncio.wait_for(client.call_tool(tool.name, arguments_for(tool)), CALL_TIMEOUT_S)
                emit({"tool": tool.name, "result": result.model_dump(mode="json", by_alias=True, exclude_none=True)})
            except asyncio.TimeoutError:
                emit({"tool": tool.name, "error": {"message": f"no answer within {CALL_TIMEOUT_S:g} s"}})
            except Exception as error:  # noqa: BLE001 - every failure of a call is printed, not raised
                code = getattr(getattr(error, "error", None), "code", None)
                emit({"tool": tool.name, "error": {"message": str(error) or type(error).__name__, **({"code": code} if isinstance(code, int) else {})}})
        # The optional second listing (through the client's cache): a failure here is reported, and the walk was done.
        try:
            emit({"listed": len(await list_all(client))})
        except Exception as error:  # noqa: BLE001
            print(f"[driver] the second listing failed: {error}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
