#!/usr/bin/env python3
"""A small MCP 2026-07-28 client written with the Python 3.11 standard library only.

It follows the mcp-tools-conformance driver contract (docs/client-mode.md):

* HTTP (default): the MCP endpoint URL is the last argument or MCP_CONFORMANCE_URL.
* stdio: MCP_CONFORMANCE_SERVER_COMMAND is a shell command line that starts the server; it is
  run with ``sh -c`` and spoken to with newline-delimited JSON-RPC.

It probes with ``server/discover``, lists the tools (every page), calls every listed tool once
with ``inputSchema.examples[0]`` (or ``{}``), answers the MRTR input requests it can (form
elicitation with the schema's defaults, roots with an empty list), and prints one JSON line
per call on stdout: ``{"tool": name, "result": ...}`` or ``{"tool": name, "error": {...}}`` (a call
with no answer within MCP_CONFORMANCE_CALL_TIMEOUT_MS milliseconds is given up and printed as an error), then
lists the tools once more, printing ``{"listed": n}`` after each listing.
Everything else (warnings, diagnostics) goes to stderr. Exit status 0 once the list was walked.

With MCP_CONFORMANCE_PROTOCOL_VERSION set to an earlier revision (2025-11-25, 2025-06-18, 2025-03-26,
2024-11-05) it speaks that revision instead: ``initialize`` and ``notifications/initialized``, the
Streamable HTTP session (``Mcp-Session-Id``, a new session after a 404) and, from 2025-06-18,
``MCP-Protocol-Version``; the server's requests in the middle of a call (elicitation, roots) are
answered where they arrive. Same steps, same output lines (basic/lifecycle.mdx, basic/transports.mdx
of that revision).

Written from the 2026-07-28 specification pages: basic/index.mdx, basic/patterns/mrtr.mdx,
basic/transports/streamable-http.mdx, basic/transports/stdio.mdx, server/tools.mdx,
server/utilities/pagination.mdx.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import queue
import re
import subprocess
import sys
import threading
import urllib.parse

PROTOCOL_VERSION = "2026-07-28"
# The revisions of the initialize handshake this client can speak instead (newest first).
LEGACY_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
CLIENT_INFO = {"name": "python-stdlib-driver", "version": "0.1.0"}
# Per-request capabilities: form-mode elicitation and roots. Nothing else (no sampling, no url
# elicitation), so a well-behaved server never asks us for those.
CLIENT_CAPABILITIES = {"elicitation": {"form": {}}, "roots": {}}

# The driver contract's call timeout (MCP_CONFORMANCE_CALL_TIMEOUT_MS); 60 s when run by hand.
REQUEST_TIMEOUT_S = int(os.environ.get("MCP_CONFORMANCE_CALL_TIMEOUT_MS") or 60_000) / 1000
MAX_LIST_PAGES = 1000          # a guard against a server that never stops paginating
MAX_MRTR_ROUNDS = 10           # a guard against a server that asks for input forever
MAX_SCHEMA_DEPTH = 64          # bounds for the output-schema validator (DoS guard)
MAX_SCHEMA_STEPS = 100_000

SAFE_INTEGER_MAX = 2**53 - 1


def log(msg: str) -> None:
    print(f"[python-stdlib-driver] {msg}", file=sys.stderr, flush=True)


class McpError(Exception):
    """A JSON-RPC error received from the server (has a code) or a local failure (code None)."""

    def __init__(self, message: str, code: int | None = None, data=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.data = data

    def to_json(self) -> dict:
        out = {"message": self.message}
        if self.code is not None:
            out["code"] = self.code
        return out


class SessionGone(McpError):
    """HTTP 404 to a request that named our session: the server ended it (a new initialize starts another)."""


def encode_json(msg) -> bytes:
    """One JSON text without embedded newlines, UTF-8 encoded."""
    try:
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (legal in a JSON string escape, not encodable as UTF-8): keep the
        # \uXXXX escape so the value still round-trips exactly.
        return json.dumps(msg, ensure_ascii=True, separators=(",", ":")).encode("ascii")


# --------------------------------------------------------------------------------------------
# Header value encoding (streamable-http.mdx, "Value Encoding")
# --------------------------------------------------------------------------------------------

SENTINEL_PREFIX = "=?base64?"
SENTINEL_SUFFIX = "?="


def header_safe(value: str) -> bool:
    """True when the value can go into a header as plain ASCII."""
    if value == "":
        return True
    # Visible ASCII and space only. Horizontal tab is legal in a field value, but it is a control
    # character and a whitespace; we play safe and Base64-encode it.
    if any(not (0x20 <= ord(ch) <= 0x7E) for ch in value):
        return False
    if value[0] == " " or value[-1] == " ":
        return False
    if value.startswith(SENTINEL_PREFIX) and value.endswith(SENTINEL_SUFFIX):
        return False  # would be mistaken for an encoded value
    return True


def encode_header_value(value: str) -> str:
    if header_safe(value):
        return value
    b64 = base64.b64encode(value.encode("utf-8")).decode("ascii")
    return f"{SENTINEL_PREFIX}{b64}{SENTINEL_SUFFIX}"


# --------------------------------------------------------------------------------------------
# x-mcp-header (tools.mdx "x-mcp-header", streamable-http.mdx "Custom Headers from Tool Parameters")
# --------------------------------------------------------------------------------------------

TCHAR_RE = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
PRIMITIVE_TYPES = {"string", "integer", "boolean"}

# JSON Schema 2020-12 (and older) keywords whose values are subschemas, by shape.
SCHEMA_MAP_KEYWORDS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_SINGLE_KEYWORDS = (
    "additionalProperties", "items", "additionalItems", "contains", "not", "if", "then", "else",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)


class InvalidToolDefinition(Exception):
    pass


def collect_header_annotations(input_schema) -> list[tuple[list[str], str]]:
    """Return [(property path, header name)] for every x-mcp-header in the inputSchema.

    Raises InvalidToolDefinition when an annotation violates the constraints.
    """
    found: list[tuple[list[str], str, dict]] = []

    def walk(schema, path: list[str] | None, depth: int) -> None:
        # path is the chain of `properties` keys from the root, or None when the schema is not
        # statically reachable (under items, a composition keyword, $defs, ...).
        if depth > MAX_SCHEMA_DEPTH:
            raise InvalidToolDefinition("inputSchema nests too deeply")
        if not isinstance(schema, dict):
            return
        if "x-mcp-header" in schema:
            if path is None or len(path) == 0:
                where = "the schema root" if path is not None else "a location that is not statically reachable"
                raise InvalidToolDefinition(f"x-mcp-header on {where}")
            found.append((path, schema["x-mcp-header"], schema))
        for kw in SCHEMA_MAP_KEYWORDS:
            sub = schema.get(kw)
            if isinstance(sub, dict):
                for name, child in sub.items():
                    child_path = path + [name] if (kw == "properties" and path is not None) else None
                    walk(child, child_path, depth + 1)
        for kw in SCHEMA_LIST_KEYWORDS:
            sub = schema.get(kw)
            if isinstance(sub, list):
                for child in sub:
                    walk(child, None, depth + 1)
        for kw in SCHEMA_SINGLE_KEYWORDS:
            sub = schema.get(kw)
            if isinstance(sub, dict):
                walk(sub, None, depth + 1)
            elif kw == "items" and isinstance(sub, list):  # draft-07 tuple form
                for child in sub:
                    walk(child, None, depth + 1)
        # A schema with x-mcp-header reached through $ref is not statically reachable either; the
        # $defs target is walked above with path None.

    walk(input_schema, [], 0)

    seen: dict[str, list[str]] = {}
    out: list[tuple[list[str], str]] = []
    for path, name, schema in found:
        label = "/".join(path)
        if not isinstance(name, str):
            raise InvalidToolDefinition(f"x-mcp-header of '{label}' is not a string")
        if name == "":
            raise InvalidToolDefinition(f"x-mcp-header of '{label}' is empty")
        if not TCHAR_RE.match(name):
            raise InvalidToolDefinition(f"x-mcp-header {name!r} of '{label}' is not an HTTP token")
        key = name.lower()
        if key in seen:
            raise InvalidToolDefinition(
                f"x-mcp-header {name!r} is used twice (case-insensitively): '{'/'.join(seen[key])}' and '{label}'")
        seen[key] = path
        types = schema.get("type")
        type_list = types if isinstance(types, list) else [types]
        non_null = [t for t in type_list if t != "null"]
        if not non_null or any(t not in PRIMITIVE_TYPES for t in non_null):
            raise InvalidToolDefinition(
                f"x-mcp-header {name!r} is on '{label}' of type {json.dumps(types)}, not integer/string/boolean")
        out.append((path, name))
    return out


def header_value_for(value, header: str) -> str:
    """Type conversion (string as-is, integer in decimal, boolean as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) > SAFE_INTEGER_MAX:
            raise McpError(f"value of Mcp-Param-{header} is outside the safe integer range")
        return str(value)
    if isinstance(value, float) and value.is_integer():
        if abs(value) > SAFE_INTEGER_MAX:
            raise McpError(f"value of Mcp-Param-{header} is outside the safe integer range")
        return str(int(value))
    if isinstance(value, str):
        return value
    raise McpError(f"value for Mcp-Param-{header} is not a string, integer or boolean")


def param_headers(annotations: list[tuple[list[str], str]], arguments: dict) -> list[tuple[str, str]]:
    headers = []
    for path, name in annotations:
        cur = arguments
        present = True
        for key in path:
            if isinstance(cur, dict) and key in cur:
                cur = cur[key]
            else:
                present = False
                break
        if not present or cur is None:
            continue  # absent or null: the header is omitted
        headers.append((f"Mcp-Param-{name}", encode_header_value(header_value_for(cur, name))))
    return headers


# --------------------------------------------------------------------------------------------
# Transports
# --------------------------------------------------------------------------------------------

class HttpTransport:
    """Streamable HTTP, 2026-07-28: one POST per message, JSON or SSE answers, no sessions."""

    name = "http"

    def __init__(self, url: str):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise McpError(f"unsupported URL scheme: {url}")
        self.scheme = parts.scheme
        self.host = parts.hostname or "localhost"
        self.port = parts.port
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        # The initialize wire only: the session the server assigned, the version agreed (for
        # MCP-Protocol-Version, 2025-06-18 on), and who answers the server's requests.
        self.legacy = False
        self.session: str | None = None
        self.protocol_version: str | None = None
        self.on_server_request = None

    def _connection(self):
        cls = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return cls(self.host, self.port, timeout=REQUEST_TIMEOUT_S)

    def _legacy_headers(self) -> list[tuple[str, str]]:
        headers = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
        if self.session is not None:
            headers.append(("Mcp-Session-Id", self.session))
        if self.protocol_version is not None:
            headers.append(("MCP-Protocol-Version", self.protocol_version))
        return headers

    def request(self, message: dict, extra_headers: list[tuple[str, str]]) -> dict:
        body = encode_json(message)
        params = message.get("params") or {}
        if self.legacy:
            headers = self._legacy_headers()
        else:
            headers = [
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("MCP-Protocol-Version", params.get("_meta", {}).get("io.modelcontextprotocol/protocolVersion",
                                                                    PROTOCOL_VERSION)),
                ("Mcp-Method", message["method"]),  # method names are plain ASCII; no sentinel for this header
            ]
            if message["method"] in ("tools/call", "prompts/get") and isinstance(params.get("name"), str):
                headers.append(("Mcp-Name", encode_header_value(params["name"])))
            elif message["method"] == "resources/read" and isinstance(params.get("uri"), str):
                headers.append(("Mcp-Name", encode_header_value(params["uri"])))
        headers.extend(extra_headers)
        sent_session = self.legacy and self.session is not None

        conn = self._connection()
        try:
            conn.putrequest("POST", self.path, skip_accept_encoding=True)
            for k, v in headers:
                conn.putheader(k, v)
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            resp = conn.getresponse()
            if self.legacy and resp.getheader("Mcp-Session-Id"):
                self.session = resp.getheader("Mcp-Session-Id")
            if sent_session and resp.status == 404:
                raise SessionGone(f"HTTP 404: the session {self.session} ended")
            ctype = (resp.getheader("Content-Type") or "").split(";")[0].strip().lower()
            if ctype == "text/event-stream" and resp.status == 200:
                return self._read_sse(resp, message["id"])
            raw = resp.read()
            if ctype == "application/json" or raw[:1] in (b"{", b"["):
                try:
                    payload = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise McpError(f"HTTP {resp.status}: unreadable JSON body ({exc})")
                if isinstance(payload, dict) and ("result" in payload or "error" in payload):
                    return payload
            raise McpError(f"HTTP {resp.status} {resp.reason} without a JSON-RPC response")
        except (OSError, http.client.HTTPException) as exc:
            raise McpError(f"HTTP transport failure: {exc}")
        finally:
            conn.close()  # closing also ends an SSE stream we no longer need

    def send(self, message: dict) -> None:
        """A notification or a response (initialize wire): nothing comes back but a status."""
        body = encode_json(message)
        conn = self._connection()
        try:
            conn.putrequest("POST", self.path, skip_accept_encoding=True)
            for k, v in self._legacy_headers():
                conn.putheader(k, v)
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            conn.getresponse().read()
        except (OSError, http.client.HTTPException) as exc:
            log(f"sending {message.get('method', 'a response')} failed: {exc}")
        finally:
            conn.close()

    def _read_sse(self, resp, request_id) -> dict:
        data_lines: list[str] = []

        def dispatch():
            if not data_lines:
                return None
            text = "\n".join(data_lines)
            data_lines.clear()
            try:
                msg = json.loads(text)
            except json.JSONDecodeError:
                log(f"ignoring SSE event that is not JSON: {text[:80]!r}")
                return None
            if isinstance(msg, dict) and "method" not in msg and msg.get("id") == request_id \
                    and ("result" in msg or "error" in msg):
                return msg
            if isinstance(msg, dict) and "method" in msg and "id" in msg and self.on_server_request:
                self.send(self.on_server_request(msg))  # a server request in the middle of ours
            elif isinstance(msg, dict) and "method" in msg and "id" not in msg:
                pass  # a notification related to our request (progress, log): nothing to do
            else:
                log(f"ignoring unexpected SSE message: {text[:120]!r}")
            return None

        while True:
            raw = resp.readline()
            if not raw:
                found = dispatch()
                if found is not None:
                    return found
                raise McpError("SSE stream ended without a response")
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if line == "":
                found = dispatch()
                if found is not None:
                    return found
                continue
            if line.startswith(":"):
                continue  # comment / keep-alive
            field, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if field == "data":
                data_lines.append(value)
            # event, id, retry: not needed (streams are not resumable in 2026-07-28)

    def close(self):
        pass


class StdioTransport:
    """stdio: the server is our child; newline-delimited JSON-RPC on its stdin/stdout."""

    name = "stdio"
    MAX_RESTARTS = 2

    def __init__(self, command: str):
        self.command = command
        self.proc = None
        self.lines: queue.Queue = queue.Queue()
        self.restarts = 0
        self.on_server_request = None
        self._start()

    def _start(self):
        self.lines = queue.Queue()
        # stderr is inherited: the server may log there; it is not an error signal.
        self.proc = subprocess.Popen(["sh", "-c", self.command], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=None)
        proc, lines = self.proc, self.lines

        def reader():
            for raw in proc.stdout:
                lines.put(raw)
            lines.put(None)  # EOF

        threading.Thread(target=reader, daemon=True).start()

    def _send(self, message: dict) -> None:
        self.proc.stdin.write(encode_json(message) + b"\n")
        self.proc.stdin.flush()

    def request(self, message: dict, extra_headers=None) -> dict:
        try:
            self._send(message)
        except (BrokenPipeError, OSError):
            self._restart_or_fail()
            self._send(message)
        while True:
            try:
                raw = self.lines.get(timeout=REQUEST_TIMEOUT_S)
            except queue.Empty:
                # Give up on it, and tell the server so (stdio cancellation).
                try:
                    self._send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                "params": {"requestId": message["id"], "reason": "timeout"}})
                except OSError:
                    pass
                raise McpError(f"no response to {message['method']} within {REQUEST_TIMEOUT_S:.0f} s")
            if raw is None:
                # The server went away with our request in flight: the request is lost.
                self._restart_or_fail()
                raise McpError(f"the server exited before answering {message['method']}")
            try:
                msg = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                log(f"ignoring a server stdout line that is not JSON: {raw[:80]!r}")
                continue
            if not isinstance(msg, dict):
                continue
            if "method" in msg and "id" in msg and self.on_server_request:
                self._send(self.on_server_request(msg))  # initialize wire: a server request mid-call
                continue
            if "method" in msg:
                # Notifications need nothing; a server-initiated request is not part of 2026-07-28
                # (MRTR replaces it) and we never write responses, so it is ignored too.
                continue
            if msg.get("id") == message["id"]:
                return msg
            log(f"ignoring a response for unknown id {msg.get('id')!r}")

    def send(self, message: dict) -> None:
        self._send(message)

    def _restart_or_fail(self):
        if self.restarts >= self.MAX_RESTARTS:
            raise McpError("the stdio server exited and restarts are exhausted")
        self.restarts += 1
        log("the stdio server exited; restarting it")
        self._stop()
        self._start()

    def _stop(self):
        proc = self.proc
        if proc is None:
            return
        try:
            proc.stdin.close()  # the graceful shutdown signal
        except OSError:
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def close(self):
        self._stop()


# --------------------------------------------------------------------------------------------
# A small JSON Schema validator for outputSchema (type, required, properties, ... and local $ref)
# --------------------------------------------------------------------------------------------

SUPPORTED_DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
}


class SchemaError(Exception):
    """The schema cannot be used (unresolvable $ref, unsupported dialect, too deep)."""


class OutputValidator:
    def __init__(self, schema):
        if not isinstance(schema, (dict, bool)):
            raise SchemaError("outputSchema is not a schema object")
        self.root = schema
        self.steps = 0
        if isinstance(schema, dict) and "$schema" in schema:
            dialect = str(schema["$schema"]).rstrip("#")
            if dialect not in SUPPORTED_DIALECTS:
                raise SchemaError(f"unsupported JSON Schema dialect {schema['$schema']!r}")
        # Index every schema resource by its absolute URI ($id), without fetching anything.
        self.resources: dict[str, object] = {}
        root_base = schema.get("$id", "") if isinstance(schema, dict) else ""
        root_base = root_base if isinstance(root_base, str) else ""
        self.root_base = urllib.parse.urldefrag(root_base)[0]
        self._index(schema, self.root_base, 0)
        # Reject up front any $ref that does not resolve inside the document.
        self._check_refs(schema, self.root_base, 0)

    def _index(self, schema, base, depth):
        if depth > MAX_SCHEMA_DEPTH:
            raise SchemaError("outputSchema nests too deeply")
        if isinstance(schema, dict):
            sid = schema.get("$id")
            if isinstance(sid, str):
                base = urllib.parse.urldefrag(urllib.parse.urljoin(base, sid))[0]
            self.resources.setdefault(base, schema)
            for child in self._children(schema):
                self._index(child, base, depth + 1)

    @staticmethod
    def _children(schema):
        for kw in SCHEMA_MAP_KEYWORDS:
            sub = schema.get(kw)
            if isinstance(sub, dict):
                yield from (c for c in sub.values() if isinstance(c, (dict, bool)))
        for kw in SCHEMA_LIST_KEYWORDS:
            sub = schema.get(kw)
            if isinstance(sub, list):
                yield from (c for c in sub if isinstance(c, (dict, bool)))
        for kw in SCHEMA_SINGLE_KEYWORDS:
            sub = schema.get(kw)
            if isinstance(sub, (dict, bool)):
                yield sub
            elif kw == "items" and isinstance(sub, list):
                yield from (c for c in sub if isinstance(c, (dict, bool)))

    def _check_refs(self, schema, base, depth):
        if isinstance(schema, dict):
            sid = schema.get("$id")
            if isinstance(sid, str):
                base = urllib.parse.urldefrag(urllib.parse.urljoin(base, sid))[0]
            for kw in ("$ref", "$dynamicRef"):
                if kw in schema:
                    self._resolve(schema[kw], base)
            for child in self._children(schema):
                self._check_refs(child, base, depth + 1)

    def _resolve(self, ref, base):
        if not isinstance(ref, str):
            raise SchemaError("$ref is not a string")
        target = urllib.parse.urljoin(base, ref) if base else ref
        doc_uri, fragment = urllib.parse.urldefrag(target)
        if doc_uri not in self.resources:
            raise SchemaError(f"$ref {ref!r} resolves to {target!r}, outside the schema; it is not fetched")
        node = self.resources[doc_uri]
        if fragment == "":
            return node, doc_uri
        if not fragment.startswith("/"):
            # A plain-name fragment ($anchor): look it up in this resource.
            found = self._find_anchor(node, fragment, 0)
            if found is None:
                raise SchemaError(f"$ref {ref!r}: anchor not found")
            return found, doc_uri
        for token in fragment[1:].split("/"):
            token = urllib.parse.unquote(token).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise SchemaError(f"$ref {ref!r}: JSON pointer does not resolve")
        return node, doc_uri

    def _find_anchor(self, schema, anchor, depth):
        if depth > MAX_SCHEMA_DEPTH or not isinstance(schema, dict):
            return None
        if schema.get("$anchor") == anchor or schema.get("$dynamicAnchor") == anchor:
            return schema
        for child in self._children(schema):
            hit = self._find_anchor(child, anchor, depth + 1)
            if hit is not None:
                return hit
        return None

    def validate(self, instance) -> list[str]:
        errors: list[str] = []
        self._validate(self.root, instance, "$", self.root_base, 0, errors)
        return errors

    @staticmethod
    def _type_ok(t, v) -> bool:
        if t == "object":
            return isinstance(v, dict)
        if t == "array":
            return isinstance(v, list)
        if t == "string":
            return isinstance(v, str)
        if t == "boolean":
            return isinstance(v, bool)
        if t == "null":
            return v is None
        if t == "integer":
            return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
        if t == "number":
            return isinstance(v, (int, float)) and not isinstance(v, bool)
        return True  # unknown type name: not ours to judge

    @staticmethod
    def _equal(a, b) -> bool:
        if isinstance(a, bool) or isinstance(b, bool):
            return type(a) is type(b) and a == b
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return a == b
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(OutputValidator._equal(x, y) for x, y in zip(a, b))
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(OutputValidator._equal(a[k], b[k]) for k in a)
        return type(a) is type(b) and a == b

    def _validate(self, schema, v, where, base, depth, errors):
        self.steps += 1
        if depth > MAX_SCHEMA_DEPTH or self.steps > MAX_SCHEMA_STEPS:
            raise SchemaError("outputSchema too deep or too expensive to validate")
        if schema is True:
            return
        if schema is False:
            errors.append(f"{where}: no value is allowed here")
            return
        if not isinstance(schema, dict):
            return
        sid = schema.get("$id")
        if isinstance(sid, str):
            base = urllib.parse.urldefrag(urllib.parse.urljoin(base, sid))[0]
        if "$ref" in schema:
            target, tbase = self._resolve(schema["$ref"], base)
            self._validate(target, v, where, tbase, depth + 1, errors)
        t = schema.get("type")
        if t is not None:
            ts = t if isinstance(t, list) else [t]
            if not any(self._type_ok(x, v) for x in ts):
                errors.append(f"{where}: expected type {json.dumps(t)}")
                return
        if "const" in schema and not self._equal(schema["const"], v):
            errors.append(f"{where}: does not equal the const value")
        if isinstance(schema.get("enum"), list) and not any(self._equal(e, v) for e in schema["enum"]):
            errors.append(f"{where}: not one of the enum values")
        if isinstance(v, dict):
            for key in schema.get("required", []) if isinstance(schema.get("required"), list) else []:
                if key not in v:
                    errors.append(f"{where}: missing required property {key!r}")
            props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
            for key, sub in props.items():
                if key in v:
                    self._validate(sub, v[key], f"{where}.{key}", base, depth + 1, errors)
            patterns = schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else {}
            addl = schema.get("additionalProperties")
            for key in v:
                matched = key in props
                for pat, sub in patterns.items():
                    try:
                        if re.search(pat, key):
                            matched = True
                            self._validate(sub, v[key], f"{where}.{key}", base, depth + 1, errors)
                    except re.error:
                        pass  # an ECMA-262 pattern Python cannot read: skip it
                if not matched and addl is not None:
                    self._validate(addl, v[key], f"{where}.{key}", base, depth + 1, errors)
        if isinstance(v, list):
            items = schema.get("items")
            prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
            for i, item in enumerate(v):
                if i < len(prefix):
                    self._validate(prefix[i], item, f"{where}[{i}]", base, depth + 1, errors)
                elif isinstance(items, (dict, bool)):
                    self._validate(items, item, f"{where}[{i}]", base, depth + 1, errors)
        for kw in ("allOf",):
            for sub in schema.get(kw, []) if isinstance(schema.get(kw), list) else []:
                self._validate(sub, v, where, base, depth + 1, errors)
        if isinstance(schema.get("anyOf"), list):
            if not any(not self._sub_errors(s, v, where, base, depth) for s in schema["anyOf"]):
                errors.append(f"{where}: matches none of anyOf")
        if isinstance(schema.get("oneOf"), list):
            n = sum(1 for s in schema["oneOf"] if not self._sub_errors(s, v, where, base, depth))
            if n != 1:
                errors.append(f"{where}: matches {n} of oneOf, not exactly one")
        if "not" in schema and not self._sub_errors(schema["not"], v, where, base, depth):
            errors.append(f"{where}: matches the 'not' schema")

    def _sub_errors(self, schema, v, where, base, depth):
        errs: list[str] = []
        self._validate(schema, v, where, base, depth + 1, errs)
        return errs


# --------------------------------------------------------------------------------------------
# The client
# --------------------------------------------------------------------------------------------

class Client:
    def __init__(self, transport, legacy: str | None = None):
        self.transport = transport
        self.next_id = 1
        # The initialize revision to speak, or None for 2026-07-28.
        self.legacy = legacy
        if legacy:
            transport.on_server_request = self.answer_server_request
            if transport.name == "http":
                transport.legacy = True

    def _meta(self) -> dict:
        return {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
            "io.modelcontextprotocol/clientCapabilities": json.loads(json.dumps(CLIENT_CAPABILITIES)),
            "io.modelcontextprotocol/clientInfo": dict(CLIENT_INFO),
        }

    def request(self, method: str, params: dict | None = None, extra_headers=None) -> dict:
        """Send a request; return its result object, or raise McpError."""
        body_params = dict(params or {})
        if not self.legacy:
            body_params["_meta"] = self._meta()
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": body_params}
        self.next_id += 1
        try:
            response = self.transport.request(message, extra_headers or [])
        except SessionGone:
            # basic/transports, Session Management: a 404 on our session asks for a new one.
            self.initialize()
            message = {**message, "id": self.next_id}
            self.next_id += 1
            response = self.transport.request(message, extra_headers or [])
        if "error" in response:
            err = response["error"] if isinstance(response["error"], dict) else {}
            code = err.get("code")
            raise McpError(str(err.get("message", "error")), code if isinstance(code, int) else None,
                           err.get("data"))
        result = response.get("result")
        if not isinstance(result, dict):
            raise McpError(f"{method}: the response has no result object")
        return result

    # -- the initialize handshake (earlier revisions) ---------------------------------------
    def initialize(self) -> dict:
        if self.transport.name == "http":
            self.transport.session = None
            self.transport.protocol_version = None
        capabilities: dict = {"roots": {}}
        if self.legacy >= "2025-06-18":
            capabilities["elicitation"] = {"form": {}} if self.legacy >= "2025-11-25" else {}
        result = self.request("initialize", {"protocolVersion": self.legacy, "capabilities": capabilities,
                                             "clientInfo": dict(CLIENT_INFO)})
        agreed = result.get("protocolVersion")
        if agreed not in LEGACY_VERSIONS:
            raise McpError(f"the server answered initialize with protocol version {agreed!r}")
        if self.transport.name == "http" and agreed >= "2025-06-18":
            self.transport.protocol_version = agreed
        self.transport.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def answer_server_request(self, msg: dict) -> dict:
        """The answer to a server request (elicitation, roots), with the request's id."""
        try:
            return {"jsonrpc": "2.0", "id": msg["id"], "result": self.answer_input(str(msg.get("method")), msg)}
        except McpError as exc:
            return {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": exc.message}}

    # -- discovery -----------------------------------------------------------------------
    def discover(self) -> dict:
        result = self.request("server/discover")
        rtype = result.get("resultType", "complete")
        if rtype != "complete":
            raise McpError(f"server/discover answered with resultType {rtype!r}")
        versions = result.get("supportedVersions")
        if isinstance(versions, list) and PROTOCOL_VERSION not in versions:
            raise McpError(f"the server supports {versions}, not {PROTOCOL_VERSION}")
        caps = result.get("capabilities")
        if isinstance(caps, dict) and "tools" not in caps:
            log("warning: the server does not declare the tools capability")
        return result

    # -- listing --------------------------------------------------------------------------
    def list_tools(self) -> list[dict]:
        tools: list[dict] = []
        cursor = None
        for _ in range(MAX_LIST_PAGES):
            params = {} if cursor is None else {"cursor": cursor}
            result = self.request("tools/list", params)
            rtype = result.get("resultType", "complete")
            if rtype != "complete":
                raise McpError(f"tools/list answered with resultType {rtype!r}")
            page = result.get("tools")
            if not isinstance(page, list):
                raise McpError("tools/list result has no tools array")
            tools.extend(page)
            # Only presence matters: "" is a cursor like any other.
            cursor = result.get("nextCursor")
            if cursor is None:
                return tools
            if not isinstance(cursor, str):
                raise McpError("tools/list nextCursor is not a string")
        raise McpError(f"tools/list did not end after {MAX_LIST_PAGES} pages")

    def usable_tools(self, tools: list[dict]) -> list[tuple[dict, list]]:
        usable = []
        for tool in tools:
            name = tool.get("name") if isinstance(tool, dict) else None
            if not isinstance(name, str) or not isinstance(tool.get("inputSchema"), dict):
                log(f"warning: skipping a malformed tool definition: {json.dumps(tool)[:120]}")
                continue
            annotations = []
            if self.transport.name == "http" and not self.legacy:
                try:
                    annotations = collect_header_annotations(tool["inputSchema"])
                except InvalidToolDefinition as exc:
                    log(f"warning: rejecting tool {name!r}: {exc}")
                    continue
            usable.append((tool, annotations))
        return usable

    # -- calling --------------------------------------------------------------------------
    def call_tool(self, tool: dict, annotations: list) -> dict:
        name = tool["name"]
        examples = tool["inputSchema"].get("examples")
        arguments = examples[0] if isinstance(examples, list) and examples and isinstance(examples[0], dict) else {}
        headers = param_headers(annotations, arguments) if self.transport.name == "http" else []

        extra: dict = {}
        for _ in range(MAX_MRTR_ROUNDS):
            params = {"name": name, "arguments": arguments, **extra}
            result = self.request("tools/call", params, headers)
            rtype = result.get("resultType", "complete")  # absent: an earlier server, "complete"
            if rtype == "complete":
                self.check_output(tool, result)
                return result
            if rtype != "input_required":
                raise McpError(f"unrecognized resultType {rtype!r}: the result is invalid")
            extra = {}
            requests = result.get("inputRequests")
            if requests is not None:
                if not isinstance(requests, dict):
                    raise McpError("input_required result with a malformed inputRequests")
                extra["inputResponses"] = {key: self.answer_input(key, req) for key, req in requests.items()}
            if "requestState" in result:
                extra["requestState"] = result["requestState"]  # echoed exactly, never looked into
            if not extra:
                raise McpError("input_required result with neither inputRequests nor requestState")
        raise McpError(f"still input_required after {MAX_MRTR_ROUNDS} rounds")

    @staticmethod
    def answer_input(key: str, req) -> dict:
        if not isinstance(req, dict):
            raise McpError(f"input request {key!r} is malformed")
        method = req.get("method")
        params = req.get("params") if isinstance(req.get("params"), dict) else {}
        if method == "roots/list":
            return {"roots": []}
        if method == "elicitation/create":
            mode = params.get("mode", "form")
            if mode != "form":
                # We only declared form elicitation.
                return {"action": "decline"}
            schema = params.get("requestedSchema") if isinstance(params.get("requestedSchema"), dict) else {}
            props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
            content = {k: p["default"] for k, p in props.items() if isinstance(p, dict) and "default" in p}
            required = schema.get("required") if isinstance(schema.get("required"), list) else []
            if any(r not in content for r in required):
                # No user here to fill the rest in: decline rather than send an incomplete form.
                return {"action": "decline"}
            return {"action": "accept", "content": content}
        raise McpError(f"input request {key!r} asks for {method!r}, which this client does not support")

    @staticmethod
    def check_output(tool: dict, result: dict) -> None:
        schema = tool.get("outputSchema")
        if schema is None or result.get("isError") is True:
            return
        try:
            validator = OutputValidator(schema)
        except SchemaError as exc:
            raise McpError(f"outputSchema of {tool['name']!r} is unusable: {exc}")
        if "structuredContent" not in result:
            raise McpError(f"{tool['name']!r} has an outputSchema but returned no structuredContent")
        try:
            errors = validator.validate(result["structuredContent"])
        except SchemaError as exc:
            raise McpError(f"outputSchema of {tool['name']!r} is unusable: {exc}")
        if errors:
            raise McpError(f"structuredContent does not match the outputSchema: {'; '.join(errors[:5])}")


def emit(line: dict) -> None:
    sys.stdout.write(encode_json(line).decode("utf-8", errors="surrogatepass") + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    try:
        sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    except AttributeError:
        pass
    server_command = os.environ.get("MCP_CONFORMANCE_SERVER_COMMAND")
    url = argv[-1] if len(argv) > 1 else os.environ.get("MCP_CONFORMANCE_URL")
    if url and url.startswith(("http://", "https://")):
        transport = HttpTransport(url)
    elif server_command:
        transport = StdioTransport(server_command)
    elif url:
        transport = HttpTransport(url)
    else:
        log("usage: driver.py <MCP endpoint URL>  (or MCP_CONFORMANCE_URL / MCP_CONFORMANCE_SERVER_COMMAND)")
        return 2

    legacy = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION") or None
    if legacy == PROTOCOL_VERSION:
        legacy = None
    if legacy is not None and legacy not in LEGACY_VERSIONS:
        log(f"MCP_CONFORMANCE_PROTOCOL_VERSION must be {PROTOCOL_VERSION} or one of {', '.join(LEGACY_VERSIONS)}")
        return 2
    client = Client(transport, legacy)
    try:
        try:
            if legacy:
                client.initialize()
            else:
                client.discover()
            tools = client.list_tools()
            emit({"listed": len(tools)})
        except McpError as exc:
            log(f"cannot list the tools: {exc.message}" + (f" (code {exc.code})" if exc.code is not None else ""))
            return 1
        for tool, annotations in client.usable_tools(tools):
            try:
                emit({"tool": tool["name"], "result": client.call_tool(tool, annotations)})
            except McpError as exc:
                emit({"tool": tool["name"], "error": exc.to_json()})
        # The contract's optional last step: the listing once more (this client keeps no cache, so it asks again).
        try:
            emit({"listed": len(client.list_tools())})
        except McpError as exc:
            log(f"the second listing failed: {exc.message}")
        return 0
    finally:
        transport.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
