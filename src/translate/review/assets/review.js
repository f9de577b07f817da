// The review page's one script (no framework): posts an approval, shows every segment's new state,
// and moves on. Ctrl+Enter (Cmd+Enter) in a translation approves it and focuses the next segment to
// review; the Approve button does the same without moving. The reviewer's name is kept in localStorage.
const main = document.querySelector('main');
const token = document.querySelector('meta[name="review-token"]').content;
const nameInput = document.getElementById('reviewer');
const summary = document.getElementById('summary');
const NAME_KEY = 'folio-review-name';
// Each state's words as the page's legend says them.
const label = (state) => document.querySelector(`.legend .state-${state}`).textContent;

const stored = localStorage.getItem(NAME_KEY);
if (stored) nameInput.value = stored;
nameInput.addEventListener('change', () => localStorage.setItem(NAME_KEY, nameInput.value.trim()));

const segments = () => [...document.querySelectorAll('li.segment')];
let busy = Promise.resolve();

function show(view, approvedIndex) {
  main.dataset.checksum = view.checksum;
  for (const [i, s] of view.segments.entries()) {
    const li = document.getElementById(`seg-${i + 1}`);
    if (!li) continue;
    li.className = `segment state-${s.state}`;
    li.querySelector('.state').textContent = label(s.state) + (s.engine ? ` (${s.engine})` : '');
    if (i === approvedIndex) li.querySelector('textarea').value = s.text;
  }
  summary.textContent = view.summary;
}

async function approve(li, moveOn) {
  const message = li.querySelector('.message');
  const by = nameInput.value.trim();
  if (!by) {
    message.textContent = 'Enter your name first (it is recorded as the reviewer).';
    nameInput.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, by);
  const index = Number(li.dataset.index);
  message.textContent = 'Saving…';
  const res = await fetch(location.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-review-token': token },
    body: JSON.stringify({ index, text: li.querySelector('textarea').value, by, checksum: main.dataset.checksum }),
  }).catch((e) => ({ ok: false, json: async () => ({ error: `not saved: ${e.message}` }) }));
  const body = await res.json().catch(() => ({ error: 'not saved: the answer was not JSON' }));
  if (!res.ok) {
    message.textContent = `Not saved: ${body.error}`;
    return;
  }
  show(body, index);
  message.textContent = 'Approved and saved.';
  if (!moveOn) return;
  const all = segments();
  const at = all.indexOf(li);
  const next = [...all.slice(at + 1), ...all.slice(0, at)].find((x) => !x.classList.contains('state-person'));
  if (next) next.querySelector('textarea').focus();
  else {
    summary.textContent += ' Every segment is approved.';
    summary.focus();
  }
}

const queue = (li, moveOn) => (busy = busy.then(() => approve(li, moveOn)));

main.addEventListener('click', (e) => {
  const button = e.target.closest('button.approve');
  if (button) queue(button.closest('li.segment'), false);
});
main.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || !e.target.matches('textarea')) return;
  e.preventDefault();
  queue(e.target.closest('li.segment'), true);
});
