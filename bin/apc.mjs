#!/usr/bin/env node
// The `apc` command. The project ships TypeScript sources and runs them through tsx's loader,
// so there is no build step between a clone and a certification.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
