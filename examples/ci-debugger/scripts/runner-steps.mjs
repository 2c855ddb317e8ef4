/**
 * The parts of a GitHub Actions job log around the test step: the runner's clock
 * and the set-up, checkout, setup-node, npm ci and clean-up steps. Used by
 * make-logs.mjs; every line is timestamped by a seeded clock.
 */

const repo = 'acme/tiny-queue';
/** Where the runner checks the project out. */
export const workdir = '/home/runner/work/tiny-queue/tiny-queue';

/** A seeded clock that writes GitHub Actions timestamps (7 fractional digits). */
export function createLog(startMs, random) {
  const lines = [];
  let now = startMs * 10_000;
  return {
    lines,
    /** Advances the clock by about `ms` milliseconds (seeded jitter) and writes a line. */
    write(text, ms = 1) {
      now += Math.round(ms * 10_000 * (0.5 + random()));
      const iso = new Date(Math.floor(now / 10_000)).toISOString().slice(0, 19);
      const fraction = String(now % 10_000_000).padStart(7, '0');
      lines.push(`${iso}.${fraction}Z ${text}`);
    },
    elapsedMs: () => Math.floor(now / 10_000) - startMs,
  };
}

/** The runner set-up and checkout steps. */
export function setUpJob(log, run) {
  log.write("Current runner version: '2.330.0'", 2);
  log.write('##[group]Operating System');
  for (const line of ['Ubuntu', '24.04.3', 'LTS']) log.write(line);
  log.write('##[endgroup]');
  log.write('##[group]Runner Image');
  for (const line of ['Image: ubuntu-24.04', 'Version: 20261116.1.0']) log.write(line);
  log.write(
    'Included Software: https://github.com/actions/runner-images/blob/ubuntu24/20261116.1/images/ubuntu/Ubuntu2404-Readme.md',
  );
  log.write('##[endgroup]');
  log.write('##[group]GITHUB_TOKEN Permissions');
  for (const line of ['Contents: read', 'Metadata: read', 'Packages: read']) log.write(line);
  log.write('##[endgroup]');
  log.write('Secret source: Actions');
  log.write('Prepare workflow directory');
  log.write('Prepare all required actions', 40);
  log.write('Getting action download info', 80);
  log.write("Download action repository 'actions/checkout@v4' (SHA:11bd71901bbe5b1630ceea73d27597364c9af683)", 300);
  log.write("Download action repository 'actions/setup-node@v4' (SHA:49933ea5288caeca8642d1e84afbd3f7d6820020)", 200);
  log.write('Complete job name: test (20.x)', 50);
  log.write('##[group]Run actions/checkout@v4', 5);
  log.write('with:');
  for (const line of [`repository: ${repo}`, 'token: ***', 'ssh-strict: true', 'persist-credentials: true']) {
    log.write(`  ${line}`);
  }
  for (const line of ['clean: true', 'fetch-depth: 1', 'lfs: false', 'submodules: false', 'set-safe-directory: true']) {
    log.write(`  ${line}`);
  }
  log.write('##[endgroup]');
  log.write(`Syncing repository: ${repo}`, 3);
  log.write('##[group]Getting Git version info');
  log.write(`Working directory is '${workdir}'`);
  log.write('[command]/usr/bin/git version', 4);
  log.write('git version 2.51.2');
  log.write('##[endgroup]');
  log.write(`Deleting the contents of '${workdir}'`);
  log.write('##[group]Initializing the repository');
  log.write('[command]/usr/bin/git init /home/runner/work/tiny-queue/tiny-queue', 5);
  log.write(`Initialized empty Git repository in ${workdir}/.git/`);
  log.write(`[command]/usr/bin/git remote add origin https://github.com/${repo}`);
  log.write('##[endgroup]');
  log.write('##[group]Fetching the repository');
  const ref =
    run.event === 'pull_request' ? `refs/remotes/pull/${run.number % 97}/merge` : `refs/remotes/origin/${run.branch}`;
  log.write(
    `[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +${run.commit}:${ref}`,
    30,
  );
  log.write(`From https://github.com/${repo}`, 400);
  log.write(` * [new ref]         ${run.commit} -> ${ref.replace('refs/remotes/', '')}`);
  log.write('##[endgroup]');
  log.write('##[group]Checking out the ref');
  log.write(`[command]/usr/bin/git checkout --progress --force ${run.commit}`, 20);
  log.write(`HEAD is now at ${run.commit.slice(0, 7)} ${run.subject}`, 20);
  log.write('##[endgroup]');
  log.write(`[command]/usr/bin/git log -1 --format=%H`);
  log.write(run.commit);
}

/** actions/setup-node and npm ci. */
export function setUpNode(log) {
  log.write('##[group]Run actions/setup-node@v4', 40);
  log.write('with:');
  for (const line of ['node-version: 20.x', 'cache: npm', 'check-latest: false', 'token: ***']) log.write(`  ${line}`);
  log.write('##[endgroup]');
  log.write('Found in cache @ /opt/hostedtoolcache/node/20.19.5/x64', 2500);
  log.write('##[group]Environment details');
  for (const line of ['node: v20.19.5', 'npm: 10.8.2', 'yarn: 1.22.22']) log.write(line, 60);
  log.write('##[endgroup]');
  log.write('[command]/opt/hostedtoolcache/node/20.19.5/x64/bin/npm config get cache', 5);
  log.write('/home/runner/.npm', 150);
  log.write('npm cache is not found', 1200);
  log.write('##[group]Run npm ci', 5);
  log.write('\u001b[36;1mnpm ci\u001b[0m');
  log.write('shell: /usr/bin/bash -e {0}');
  log.write('##[endgroup]');
  log.write('', 1800);
  log.write('up to date, audited 1 package in 211ms', 5);
  log.write('');
  log.write('found 0 vulnerabilities');
}

/** Post-job clean-up (a failed job skips the checkout clean-up). */
export function cleanUp(log, run) {
  if (run.kind === 'pass') {
    log.write('Post job cleanup.', 30);
    log.write('[command]/usr/bin/git version');
    log.write('git version 2.51.2');
    log.write(
      `Temporarily overriding HOME='/home/runner/work/_temp/${run.number}' before making global git config changes`,
    );
    log.write(`[command]/usr/bin/git config --global --add safe.directory ${workdir}`);
    log.write('[command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand');
    log.write(
      '[command]/usr/bin/git config --local --name-only --get-regexp http\\.https\\:\\/\\/github\\.com\\/\\.extraheader',
    );
    log.write('http.https://github.com/.extraheader');
    log.write('[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader');
  }
  log.write('Cleaning up orphan processes', 15);
}
