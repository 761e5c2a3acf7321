import { describe, expect, it } from 'vitest';
import { escapeXmlAttribute, escapeXmlText, xmlElement, xmlTextElement } from './xml.js';

describe('xml helpers', () => {
  it('escapes markup in text and attributes, keeping whitespace in attributes as references', () => {
    expect(escapeXmlText('a<b>&c"\'\u0000')).toBe('a&lt;b&gt;&amp;c"\'');
    expect(escapeXmlAttribute('<"\'&>\t\n\r\ufffe')).toBe('&lt;&quot;&apos;&amp;&gt;&#9;&#10;&#13;');
  });

  it('indents nested markup but never the continuation lines of text content', () => {
    const text = xmlTextElement('system-out', {}, 'line one\n  <indented> & more\r\nlast');
    const rendered = xmlElement('outer', { n: 1, absent: undefined }, [
      xmlElement('inner', {}, [text]),
      xmlElement('empty', { a: 'x' }),
    ]);
    expect(rendered).toBe(
      [
        '<outer n="1">',
        '  <inner>',
        '    <system-out>line one',
        '  &lt;indented&gt; &amp; more&#13;',
        'last</system-out>',
        '  </inner>',
        '  <empty a="x"/>',
        '</outer>',
      ].join('\n'),
    );
  });
});
