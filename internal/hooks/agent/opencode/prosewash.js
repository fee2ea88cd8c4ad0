// prosewash for opencode: opencode has no shell-hook configuration, only
// plugins, so this plugin hands each event to the same entry point every
// other agent's hooks call: 'prosewash hook opencode EVENT' with a JSON
// payload on standard input ({"session_id", "cwd", "tool_name",
// "tool_input", "stop_hook_active"}) and a JSON answer on standard output
// ({"message"} for the user, {"context"} for the model's next turn,
// {"continue"} to ask the agent to go on). Written by 'prosewash install
// --opencode'; 'prosewash uninstall --opencode' removes it.
//
// It fails open: without prosewash on PATH, or with any error, the event
// goes on as if the plugin were not there, and the user hears it once.
import { spawn } from "node:child_process"

// The tools that write files: their arguments name the file (write, edit),
// carry a patch (apply_patch) or a shell command (bash).
const writers = new Set(["write", "edit", "multiedit", "apply_patch", "patch", "bash"])

function run(event, payload, cwd) {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn("prosewash", ["hook", "opencode", event], { cwd, stdio: ["pipe", "pipe", "pipe"] })
    } catch (err) {
      resolve({ failed: String(err) })
      return
    }
    let out = ""
    let errOut = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (errOut += d))
    child.on("error", (err) => resolve({ failed: err.code === "ENOENT" ? "not found on PATH" : String(err) }))
    child.on("close", () => {
      try {
        resolve({ ...JSON.parse(out || "{}"), stderr: errOut.trim() })
      } catch {
        resolve({ failed: "unreadable answer: " + out.slice(0, 200) })
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

// within bounds a call to opencode's own server: in a headless run that is
// shutting down, a toast nobody shows never answers, and a plugin hook that
// never returns keeps opencode from exiting.
function within(promise, ms = 3000) {
  return Promise.race([
    Promise.resolve(promise).catch(() => {}),
    new Promise((resolve) => {
      const t = setTimeout(resolve, ms)
      t.unref?.()
    }),
  ])
}

export const ProsewashPlugin = async ({ client, directory }) => {
  const context = new Map() // session id -> what the model hears at its next turn
  const continued = new Set() // sessions whose last idle we answered by going on
  let warned = false

  const tell = async (message) => {
    if (!message) return
    await within(client.app.log({ body: { service: "prosewash", level: "info", message } }))
    await within(client.tui.showToast({ body: { message, variant: "info" } }))
  }

  const hook = async (event, payload) => {
    const r = await run(event, payload, directory)
    if (r.failed) {
      if (!warned) await tell(`prosewash: ${r.failed}; opencode ${event} hook skipped`)
      warned = true
      return {}
    }
    await tell(r.message)
    if (r.context && payload.session_id) {
      const had = context.get(payload.session_id)
      context.set(payload.session_id, had ? had + "\n" + r.context : r.context)
    }
    return r
  }

  return {
    "tool.execute.before": async (input, output) => {
      if (!writers.has(input.tool)) return
      await hook("tool-before", { session_id: input.sessionID, cwd: directory, tool_name: input.tool, tool_input: output.args })
    },
    "tool.execute.after": async (input) => {
      if (!writers.has(input.tool)) return
      await hook("tool-after", { session_id: input.sessionID, cwd: directory, tool_name: input.tool, tool_input: input.args })
    },
    "experimental.chat.system.transform": async (input, output) => {
      const c = input.sessionID && context.get(input.sessionID)
      if (!c) return
      context.delete(input.sessionID)
      output.system.push(c)
    },
    event: async ({ event }) => {
      if (event.type === "session.created") {
        await hook("session-start", { session_id: event.properties.info.id, cwd: directory })
        return
      }
      if (event.type !== "session.idle") return
      // opencode calls this handler without awaiting it, and 'opencode run'
      // exits at the first idle: there the clean below finishes after
      // opencode has gone, and its answer is not heard.
      const id = event.properties.sessionID
      // The turn that our own answer continued ends as it is: asked once.
      const again = continued.delete(id)
      const r = await hook("idle", { session_id: id, cwd: directory, stop_hook_active: again })
      if (!r.continue) return
      continued.add(id)
      try {
        await client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: r.continue }] } })
      } catch (err) {
        continued.delete(id)
        await tell(`prosewash: could not ask the agent to go on: ${err}`)
      }
    },
  }
}
