/**
 * `chatads serve --metrics-port N`: `GET /metrics` in the Prometheus text format on a listener
 * of its own (loopback by default), never on the public port, so scraping needs no key and the
 * public side never shows it.
 */
import { createServer, type Server } from 'node:http';
import type { PrometheusMetrics } from '../metrics/index.js';

export function metricsServer(metrics: PrometheusMetrics): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('GET or HEAD only\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
    );
  });
}
