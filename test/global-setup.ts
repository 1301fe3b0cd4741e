/** Builds dist/ once, so the CLI and package tests run what users install. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/tsup/dist/cli-default.js', '--silent'], { stdio: 'inherit' });
}
