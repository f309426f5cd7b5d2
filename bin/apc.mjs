#!/usr/bin/env node
// The `apc` command. It runs the CLI's sources bundled to JavaScript (see compiled-cli.mjs), so
// a start costs no TypeScript transform; there is still no build step to run by hand.
import { cliEntry } from './compiled-cli.mjs';

const argv = process.argv.slice(2);
// `apc serve --graphs` imports the user's graph modules, which may be TypeScript.
if (argv[0] === 'serve') (await import('tsx/esm/api')).register();
const { main } = await import(await cliEntry());
process.exitCode = await main(argv);
