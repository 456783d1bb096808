/** webhook-url-policy.ts: which webhook URLs registration accepts. DNS is a stub: nothing resolves for real, nothing is sent. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkWebhookUrl, isOperatorAllowedHost, isPublicAddress, type HostLookup } from '../../src/webhooks/webhook-url-policy.js';
import { STUB_DNS, stubLookup } from '../helpers/stub-lookup.js';

const policy: { allowedHosts: string[]; lookup: HostLookup } = { allowedHosts: [], lookup: stubLookup(STUB_DNS) };

describe('isPublicAddress', () => {
  it('non-public addresses of every kind > false', () => {
    const hidden = [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '240.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      '2001:db8::1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      '2001::1',
      // IPv4-compatible (::/96), which ipaddr.js and request-filtering-agent take for unicast.
      '::7f00:1',
      '::127.0.0.1',
      '0::7f00:1',
      '::a00:1',
      '::a9fe:a9fe',
      '::8.8.8.8',
      '::ffff:ffff',
    ];
    for (const address of hidden) assert.equal(isPublicAddress(address), false, address);
  });
  it('public unicast addresses > true; text that is no address > false', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '2a00:1450:4001:80b::200e'])
      assert.equal(isPublicAddress(address), true, address);
    for (const text of ['example.com', '', '0x7f000001', '127.1', '[::1]', '1.2.3.4.5']) assert.equal(isPublicAddress(text), false, text);
  });
});

describe('isOperatorAllowedHost', () => {
  it('a URL hostname against WEBHOOK_ALLOWED_HOSTS > matches without brackets, case or trailing dot, an address in any spelling', () => {
    const allowed = ['localhost', '127.0.0.1', '::1', 'hooks.internal'];
    for (const host of ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '[::1]', '[0:0:0:0:0:0:0:1]', 'Hooks.Internal'])
      assert.equal(isOperatorAllowedHost(host, allowed), true, host);
    for (const host of ['127.0.0.2', 'evil-localhost', 'localhost.evil', '[::2]', 'hooks.internal.evil', ''])
      assert.equal(isOperatorAllowedHost(host, allowed), false, host);
    assert.equal(isOperatorAllowedHost('localhost', []), false);
  });
});

describe('checkWebhookUrl', () => {
  const verdict = (url: string, overrides: Partial<typeof policy> & { lookupTimeoutMs?: number } = {}) => checkWebhookUrl(url, { ...policy, ...overrides });

  it('loopback literals > refused when not allowed, whatever their spelling', async () => {
    for (const url of ['https://127.0.0.1/', 'https://[::1]/', 'https://0x7f.1/', 'https://2130706433/', 'https://[::ffff:127.0.0.1]/', 'https://localhost/']) {
      const result = await verdict(url, { lookup: stubLookup({ localhost: ['127.0.0.1', '::1'] }) });
      assert.equal(result.accepted, false, url);
    }
  });

  it('IPv4-compatible IPv6 literals (::/96), in any spelling > refused as ipv4 compatible, without a lookup', async () => {
    const lookup = stubLookup({});
    for (const url of ['https://[::127.0.0.1]/', 'https://[::10.0.0.1]/', 'https://[::169.254.169.254]/', 'https://[0::7f00:1]/', 'https://[::8.8.8.8]/']) {
      const host = new URL(url).hostname.slice(1, -1);
      assert.deepEqual(
        await verdict(url, { lookup }),
        { accepted: false, reason: `must not point at a non-public address: ${host} is one (ipv4 compatible)` },
        url,
      );
    }
    assert.deepEqual(lookup.asked, []);
  });

  it('a name resolving to an IPv4-compatible address > refused', async () => {
    const lookup = stubLookup({ 'compat.example': ['93.184.215.14', '::7f00:1'] });
    assert.deepEqual(await verdict('https://compat.example/hooks', { lookup }), {
      accepted: false,
      reason: 'must not point at a non-public address: compat.example resolves to one (ipv4 compatible)',
    });
  });

  it('a host name with an empty label > refused without a lookup; one trailing dot is not one', async () => {
    const lookup = stubLookup({ 'receiver.example.': ['93.184.215.14'] });
    for (const url of ['https://localhost../', 'https://a..b.example/', 'https://.receiver.example/', 'https://receiver.example../x']) {
      assert.deepEqual(
        await verdict(url, { lookup }),
        { accepted: false, reason: `must not have an empty label in its host name (${new URL(url).hostname})` },
        url,
      );
    }
    assert.deepEqual(lookup.asked, []);
    assert.equal((await verdict('https://receiver.example./x', { lookup })).accepted, true);
  });

  it('an accepted URL > answered as the URL standard writes it', async () => {
    assert.deepEqual(await verdict('HTTPS://Receiver.Example:443/a/../hooks?x=1'), { accepted: true, url: 'https://receiver.example/hooks?x=1' });
  });

  it('a lookup that fails otherwise than ENOTFOUND, or takes too long > accepted (the connection is checked again)', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('queryA ETIMEOUT'), { code: 'EAI_AGAIN' });
    };
    assert.equal((await verdict('https://flaky.example/', { lookup: failing })).accepted, true);
    const hanging: HostLookup = () => new Promise(() => {});
    // The lookup's timer is unref'd (a lookup never holds the process open): this one keeps the
    // test's process alive until it fires, or the run would end with the verdict still pending.
    const alive = setInterval(() => {}, 1000);
    try {
      assert.equal((await verdict('https://slow.example/', { lookup: hanging, lookupTimeoutMs: 20 })).accepted, true);
    } finally {
      clearInterval(alive);
    }
  });

  it('localhost and names under .localhost > refused as loopback without a lookup (the resolver does not read /etc/hosts)', async () => {
    const lookup = stubLookup({});
    for (const url of ['https://localhost/', 'https://LOCALHOST./x', 'https://api.localhost:8443/']) {
      assert.deepEqual(
        await verdict(url, { lookup }),
        { accepted: false, reason: `must not point at a non-public address: ${new URL(url).hostname} is one (loopback)` },
        url,
      );
    }
    assert.deepEqual(lookup.asked, []);
    assert.equal((await verdict('https://localhost.example/', { lookup })).accepted, true, 'a name that only starts with localhost is looked up');
  });

  it('an operator-allowed host > not looked up at all', async () => {
    const lookup = stubLookup({});
    assert.equal((await verdict('http://hooks.internal:8080/x', { allowedHosts: ['hooks.internal'], lookup })).accepted, true);
    assert.deepEqual(lookup.asked, []);
  });

  it('a URL longer than 2048 characters > refused before parsing', async () => {
    assert.deepEqual(await verdict(`https://receiver.example/${'a'.repeat(2048)}`), { accepted: false, reason: 'must have at most 2048 characters' });
  });

  it('an empty fragment > refused too', async () => {
    assert.equal((await verdict('https://receiver.example/#')).accepted, false);
  });
});
