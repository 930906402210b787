#!/usr/bin/env node
// The `meridian` command (sdk/src/cli/main.ts, built to dist/ by `npm run build -w sdk`).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
