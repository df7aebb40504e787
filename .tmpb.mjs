const b = await import('./scripts/bench-serve.mjs');
const flags = process.argv.slice(2);
const t0 = performance.now();
const r = await b.runSoak(await b.bundleSoakDriver(), { runs: 200, intervalMs: 20, kube: false, v8Flags: flags, deadlineMs: 300000 });
const s = r.samples;
console.log(flags.join(' '), ((performance.now()-t0)/1000).toFixed(1), 's', r.code, 'slope61+', b.slopeOf(s.filter(x=>x.run>60)).toFixed(0), 'slope101+', b.slopeOf(s.filter(x=>x.run>100)).toFixed(0), 'code50', s[49]?.codeSpace, 'code200', s[199]?.codeSpace);
