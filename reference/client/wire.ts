import { CLIENT_INFO } from './constants.js';

export type WireEncoder = (message: object) => Uint8Array;

export const jsonBytes: WireEncoder = (message) => Buffer.from(JSON.stringify(message), 'utf8');

/** The `invalid-utf8` defect: a raw 0xFF byte just before the closing quote of the clientInfo name. */
export const invalidUtf8Bytes: WireEncoder = (message) => {
  const text = JSON.stringify(message);
  const name = JSON.stringify(CLIENT_INFO.name);
  const at = text.indexOf(`"name":${name}`);
  if (at === -1) return jsonBytes(message);
  const quote = at + `"name":${name}`.length - 1;
  return Buffer.concat([
    Buffer.from(text.slice(0, quote), 'utf8'),
    Buffer.of(0xff),
    Buffer.from(text.slice(quote), 'utf8'),
  ]);
};
