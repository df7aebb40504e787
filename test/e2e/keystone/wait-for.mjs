#!/usr/bin/env node
// Waits until every URL answers 200 (any HTTP status with --any-status), at most 90 s in all.
//   node wait-for.mjs [--any-status] URL...
const args = process.argv.slice(2);
const anyStatus = args[0] === '--any-status';
const urls = anyStatus ? args.slice(1) : args;
const deadline = Date.now() + 90_000;
for (const url of urls) {
  let last = 'no answer';
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      if (anyStatus || res.status === 200) break;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error?.cause?.code ?? error?.message ?? String(error);
    }
    if (Date.now() > deadline) {
      console.error(`keystone-e2e: ${url} not ready after 90 s (${last})`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
