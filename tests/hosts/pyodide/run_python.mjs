// Runs Python code in Pyodide (the npm package pinned in package.json) under Node, for the tests.
//
// Reads one JSON request from stdin:
//   {"files": {"/path/in/pyodide": "text", ...},      written into Pyodide's file system
//    "mounts": {"/path/in/pyodide": "/host/folder"},  host folders made visible (NODEFS)
//    "code": "python source"}                          run with top-level await allowed
// and writes the value of the code's last expression (a string) to stdout. What Python prints goes
// to stderr. Pyodide loads from this folder's node_modules only: network access is refused, so
// nothing can come from a CDN (no package is loaded; the standard library is in the npm package).
import { loadPyodide } from "pyodide";

globalThis.fetch = async (url) => {
  throw new Error(`no network in these tests (asked for ${url})`);
};

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const pyodide = await loadPyodide({ stdout: (line) => process.stderr.write(line + "\n"),
                                    stderr: (line) => process.stderr.write(line + "\n") });
for (const [target, source] of Object.entries(request.mounts ?? {})) {
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: source }, target);
}
for (const [path, text] of Object.entries(request.files ?? {})) {
  pyodide.FS.mkdirTree(path.substring(0, path.lastIndexOf("/")) || "/");
  pyodide.FS.writeFile(path, text, { encoding: "utf8" });
}
const result = await pyodide.runPythonAsync(request.code);
process.stdout.write(String(result));
