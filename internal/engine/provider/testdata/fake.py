#!/usr/bin/env python3
"""A provider that speaks prosewash-provider/1 and misbehaves on request.

The request's options["mode"] picks the behaviour, so one script covers every
case the engine must survive. Used by engine tests only.
"""
import json, os, subprocess, sys, time

def main():
    io_files = len(sys.argv) > 2 and sys.argv[1] == "--files"
    raw = open(sys.argv[2], "rb").read() if io_files else sys.stdin.buffer.read()
    req = json.loads(raw)
    mode = (req.get("options") or {}).get("mode", "upper")
    out = open(sys.argv[3], "w") if io_files else sys.stdout
    if mode == "crash":
        sys.stderr.write("fake: something broke\n")
        sys.exit(3)
    if mode == "sleep":
        # a grandchild that would outlive us if only the child were killed
        subprocess.Popen(["sleep", "300"])
        time.sleep(300)
    if mode == "garbage":
        out.write("this is not json")
        return
    if mode == "twodocs":
        out.write('{"protocol":"prosewash-provider/1","files":[]}{}')
        return
    if mode == "wrongproto":
        out.write(json.dumps({"protocol": "other/1", "files": []}))
        return
    if mode == "refuse":
        out.write(json.dumps({"protocol": "prosewash-provider/1", "files": [], "error": "no model configured"}))
        return
    if mode == "selfedit":
        # changes its own script while it runs, then answers as usual
        with open(os.path.abspath(__file__), "a") as me:
            me.write("\n")
        mode = "upper"
    if mode == "big":
        out.write("x" * int(req["options"]["size"]))
        return
    files = []
    for f in req["files"]:
        regs = []
        for r in f["regions"]:
            t = r["text"]
            if mode == "upper":
                t = t.upper()
            elif mode == "strip-zwsp":
                t = t.replace("\u200b", "")
            regs.append({"id": r["id"], "text": t})
        if mode == "drop-region" and regs:
            regs = regs[:-1]
        if mode == "add-region":
            regs.append({"id": len(regs), "text": "extra"})
        if mode == "dup-region" and regs:
            regs.append(dict(regs[0]))
        if mode == "no-text":
            regs = [{"id": r["id"]} for r in regs]
        files.append({"id": f["id"], "regions": regs})
    if mode == "drop-file" and files:
        files = files[1:]
    out.write(json.dumps({"protocol": "prosewash-provider/1", "files": files}))

main()
