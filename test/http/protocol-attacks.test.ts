/**
 * RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
 * request message that lacks a Host header field and to any request message that contains more
 * than one Host header field line or a Host header field with an invalid field value." The last
 * two apply to every version, HTTP/1.0 included; Node's parser lets such values through.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { protocolProblem } from '../../src/http/protocol-checks.js';

const request = (httpVersion: string, rawHeaders: string[]) => {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] ??= rawHeaders[i + 1]!;
  return { httpVersion, rawHeaders, headers };
};

describe('protocolProblem and hostile Host values', () => {
  it('protocolProblem > a Host that is no uri-host[:port] (a space, userinfo, a path, two colons) > bad_request naming the Host', () => {
    for (const host of ['a b', 'user@example.com', 'example.com/evil', 'a:b:c', 'example.com:80x', '<script>']) {
      const problem = protocolProblem(request('1.1', ['Host', host]));
      assert.equal(problem?.code, 'bad_request', `Host: ${host}`);
      assert.match(String(problem?.message), /Host/);
    }
  });

  it('protocolProblem > Hosts as clients send them (names, ports, IPv4, IPv6 literals, empty) > no problem', () => {
    for (const host of [
      'example.com',
      'localhost:8080',
      '127.0.0.1:3000',
      '[::1]:3000',
      '[2001:db8::1]',
      '[fe80::1%25eth0]:80',
      'example.com.',
      'xn--nandu-3ra.example',
      '',
    ]) {
      assert.equal(protocolProblem(request('1.1', ['Host', host])), undefined, `Host: ${host}`);
    }
  });

  it('protocolProblem > an HTTP/1.0 request with two Hosts > bad_request (only a missing Host is allowed to HTTP/1.0)', () => {
    assert.equal(protocolProblem(request('1.0', ['Host', 'a', 'Host', 'b']))?.code, 'bad_request');
    assert.equal(protocolProblem(request('1.0', [])), undefined);
  });
});
