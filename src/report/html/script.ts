/**
 * The page's only script (inline; the CSP admits it by hash): the status filters, the "failures only"
 * shortcut, expand/collapse of what is shown, and opening the check a `#check-…` link points at.
 */
export const SCRIPT = `(() => {
  const FAILURES = ['fail', 'warn', 'error'];
  const boxes = Array.from(document.querySelectorAll('#filters input[name="status"]'));
  const failuresOnly = document.getElementById('failures-only');
  const checks = Array.from(document.querySelectorAll('details.check'));
  const areas = Array.from(document.querySelectorAll('section.area'));
  const shown = document.getElementById('shown-count');
  function apply() {
    const wanted = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
    failuresOnly.checked = boxes.every((b) => b.checked === FAILURES.includes(b.value));
    let count = 0;
    for (const check of checks) {
      const visible = wanted.has(check.dataset.status);
      check.hidden = !visible;
      if (visible) count += 1;
    }
    for (const area of areas) area.hidden = area.querySelector('details.check:not([hidden])') === null;
    shown.textContent = String(count);
  }
  failuresOnly.addEventListener('change', () => {
    for (const box of boxes) box.checked = failuresOnly.checked ? FAILURES.includes(box.value) : true;
    apply();
  });
  for (const box of boxes) box.addEventListener('change', apply);
  document.getElementById('expand-shown').addEventListener('click', () => {
    for (const check of checks) if (!check.hidden) check.open = true;
  });
  document.getElementById('collapse-all').addEventListener('click', () => {
    for (const check of checks) check.open = false;
  });
  function reveal() {
    let id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
    const target = id === '' ? null : document.getElementById(id);
    if (target === null || !target.classList.contains('check')) return;
    if (target.hidden) {
      for (const box of boxes) box.checked = true;
      apply();
    }
    target.open = true;
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  apply();
  reveal();
})();
`;
