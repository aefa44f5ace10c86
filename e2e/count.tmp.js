const { connect } = require('nats');
(async () => {
  const nc = await connect({ servers: process.argv[2] });
  const counts = new Map(); let bytes = 0;
  const sub = nc.subscribe('>');
  setTimeout(() => sub.unsubscribe(), Number(process.argv[3]));
  for await (const m of sub) {
    let k = m.subject;
    k = k.replace(/_INBOX\.[^.]+\..*/, '_INBOX (replies)').replace(/\$KV\.([^.]+)\..*/, '$KV.$1').replace(/job\.events\..*/, 'job.events.*').replace(/jobs\.active\..*/, 'jobs.active.*').replace(/\$JS\.ACK\..*/, '$JS.ACK').replace(/\$JS\.API\.CONSUMER\.MSG\.NEXT\..*/, '$JS.API.CONSUMER.MSG.NEXT').replace(/\$JS\.API\.DIRECT\.GET\.([^.]+).*/, '$JS.API.DIRECT.GET.$1').replace(/\$JS\.EVENT\..*/, '$JS.EVENT');
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const jobs = counts.get('jobs.complete-upload') || 1;
  let total = 0; for (const v of counts.values()) total += v;
  console.log('jobs (complete-upload):', jobs, 'messages per job:', (total / jobs).toFixed(1));
  for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1])) console.log((v / jobs).toFixed(2).padStart(7), k);
  await nc.close();
})();
