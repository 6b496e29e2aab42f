/**
 * What `sluice deploy` and `sluice update --code` were pointed at, made into a saved component:
 * a local file (its relative imports bundled here), an http(s) URL the server fetches, or a key
 * (`key` or `key@version`: the account's own component, else the public registry's). Saving first compiles the code once, tells the CLI which
 * props to ask for, and lets the deploy name the component by id.
 */
import fs from "node:fs";
import path from "node:path";
import type { SluiceClient } from "../client/client.js";
import type { Component } from "../client/types.js";
import { bundleComponentFile } from "./bundle-file.js";
import { UsageError } from "./output.js";
import { withSpinner } from "./terminal.js";

const URL_TARGET = /^https?:\/\//i;
const FILE_LIKE = /[\\/]|\.[cm]?[jt]sx?$/i;

export async function saveTarget(client: SluiceClient, target: string): Promise<Component> {
  if (URL_TARGET.test(target)) {
    return withSpinner(`Fetching and compiling ${target}`, () =>
      client.saveComponent({ component_url: target }),
    );
  }
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat?.isFile()) return saveFile(client, target);
  if (stat?.isDirectory()) throw new UsageError(`${target} is a directory; give the component's file`);
  if (FILE_LIKE.test(target)) throw new UsageError(`No such file: ${target}`);
  if (target.startsWith("sc_")) return client.getComponent(target);
  // A key (or key@version): the account's own component, else the public registry's.
  return withSpinner(`Finding ${target}`, () => client.componentForKey(target));
}

/** Bundles a local file's relative imports and saves the result (npm packages install on the server). */
export async function saveFile(client: SluiceClient, file: string): Promise<Component> {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new UsageError(`No such file: ${file}`);
  const bundled = await withSpinner(`Bundling ${path.basename(file)}`, () => bundleComponentFile(file));
  return withSpinner("Compiling on the server (installing npm packages if needed)", () =>
    client.saveComponent({ component_code: bundled.code, filename: bundled.filename }),
  );
}
