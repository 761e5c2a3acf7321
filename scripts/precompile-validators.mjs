// Build step after the transpile (scripts/build.mjs): ajv standalone validators for our own wire schemas and the JSON
// Schema meta-schemas, so an audit does not spend its first few hundred milliseconds compiling them; and the reference
// server's tool input validators, so its first tools/call does not load ajv's compiler.
//
// Generating them takes ~1.5 s of CPU, so it is done only when what they are generated from changed: the transpiled
// modules the generators import (followed through their relative imports), the versions of the packages those name,
// and this script. dist/.precompiled.json records that digest and the files written; a fresh clone has none.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const STAMP = join(dist, '.precompiled.json');
const GENERATORS = ['dist/src/schema/precompiled/generate.js', 'dist/reference/server/precompile-inputs.js'];

/** The generators and every module of ours they import, directly or not (relative specifiers, static or dynamic). */
function modulesOf(entries) {
  const seen = new Set();
  const pending = entries.map((entry) => join(root, entry));
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.\.?\/[^'"]+)['"]/g))
      pending.push(resolve(dirname(file), specifier));
  }
  return [...seen].sort();
}

/** Digest of everything the validators are generated from. */
function inputsDigest() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const packages = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  const named = new Set();
  for (const file of modulesOf(GENERATORS)) {
    const text = readFileSync(file, 'utf8');
    hash.update(`\0${relative(root, file).split(sep).join('/')}\0${text}`);
    for (const [, specifier] of text.matchAll(/['"]((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^'"]*)?['"]/g))
      if (packages.includes(specifier)) named.add(specifier);
  }
  for (const name of [...named].sort())
    hash.update(
      `\0${name}@${JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version}`,
    );
  return hash.digest('hex');
}

function upToDate(digest) {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    return stamp.digest === digest && stamp.files.every((file) => existsSync(join(root, file)));
  } catch {
    return false;
  }
}

const digest = inputsDigest();
if (!upToDate(digest)) {
  rmSync(STAMP, { force: true });
  // Generated from the ajv packages themselves: a one-file ajv left by an earlier build (scripts/bundle.mjs writes it
  // afterwards) could be of an older ajv.
  rmSync(join(dist, 'vendor'), { recursive: true, force: true });
  const { writePrecompiledValidators } = await import('../dist/src/schema/precompiled/generate.js');
  const { writeReferenceInputValidators } = await import('../dist/reference/server/precompile-inputs.js');
  const files = [...writePrecompiledValidators(), writeReferenceInputValidators()];
  writeFileSync(
    STAMP,
    `${JSON.stringify({ digest, files: files.map((file) => relative(root, file).split(sep).join('/')) }, null, 2)}\n`,
  );
}
