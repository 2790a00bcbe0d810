#!/usr/bin/env python3
"""An example cairn extension in Python (standard library only).

It registers /greet: a select dialog picks a greeting, a confirm dialog
asks whether to use it, and a status line says what was chosen. In a mode
with no UI (cairn -p) the dialog fails at once with error -32001, and the
command says so. Put this file, executable, in ~/.cairn/extensions/.
"""
import json
import sys
import threading

NO_UI = -32001

_lock = threading.Lock()
_next_id = 0
_pending = {}  # id -> [event, response]


def send(msg):
    msg["jsonrpc"] = "2.0"
    line = json.dumps(msg, separators=(",", ":"))
    with _lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class RPCError(Exception):
    def __init__(self, error):
        super().__init__(error.get("message", "error"))
        self.code = error.get("code")


def call(method, params):
    """Sends a request to cairn and waits for its response."""
    global _next_id
    with _lock:
        _next_id += 1
        rid = _next_id
        slot = _pending[rid] = [threading.Event(), None]
    send({"id": rid, "method": method, "params": params})
    slot[0].wait()
    resp = slot[1]
    if "error" in resp:
        raise RPCError(resp["error"])
    return resp.get("result")


def ui(method, **fields):
    fields["method"] = method
    return call("ui", fields)


def greet(args):
    choice = ui("select", title="Pick a greeting", options=["Hello", "Good morning", "Ahoy"], timeout=60000)
    if choice.get("cancelled"):
        ui("notify", message="No greeting picked", notifyType="warning")
        return
    greeting = choice["value"]
    who = args or "world"
    ok = ui("confirm", title="Send it?", message="%s, %s!" % (greeting, who), timeout=60000)
    status("greeted %s with %s" % (who, greeting) if ok.get("confirmed") else "greeting not sent")


def status(text):
    """Sets the status line; a front end without one (ACP) gets a notice."""
    try:
        ui("setStatus", statusKey="greet", statusText=text)
    except RPCError as e:
        if e.code != NO_UI:
            raise
        ui("notify", message=text)


def serve(msg):
    method, params, rid = msg.get("method"), msg.get("params") or {}, msg.get("id")
    try:
        if method == "initialize":
            result = {
                "protocolVersion": 1,
                "name": "greet",
                "commands": [{"name": "greet", "description": "Pick a greeting and send it"}],
            }
        elif method == "run_command" and params.get("name") == "greet":
            greet(params.get("args", ""))
            result = None
        else:
            send({"id": rid, "error": {"code": -32601, "message": "no method " + str(method)}})
            return
        send({"id": rid, "result": result})
    except RPCError as e:
        msg = "no UI in this mode: /greet needs a person to answer" if e.code == NO_UI else str(e)
        send({"id": rid, "error": {"code": -32000, "message": msg}})


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if "method" not in msg:  # a response to one of our calls
            with _lock:
                slot = _pending.pop(msg.get("id"), None)
            if slot:
                slot[1] = msg
                slot[0].set()
        elif "id" in msg:
            threading.Thread(target=serve, args=(msg,), daemon=True).start()
        # Notifications (cancel) need nothing here.


if __name__ == "__main__":
    main()
