/**
 * The report's only script: filters, tick details, permalinks and (in `hangbench view`) live updates. Plain browser
 * JavaScript kept as a string, so the page needs no bundler and no network.
 */
export const CLIENT_SCRIPT = String.raw`
(() => {
  const attempts = document.getElementById('attempts');
  const filters = [...document.querySelectorAll('select[data-filter]')];
  const count = document.getElementById('shown');
  const cardOf = (key) => [...attempts.querySelectorAll('section.attempt')].find((card) => card.dataset.key === key);

  function applyFilters() {
    const cards = [...attempts.querySelectorAll('section.attempt')];
    let shown = 0;
    for (const card of cards) {
      const visible = filters.every((select) => select.value === '' || card.dataset[select.dataset.filter] === select.value);
      card.hidden = !visible;
      if (visible) shown += 1;
    }
    count.textContent = shown + ' of ' + cards.length + ' attempts';
  }

  function ticksOf(card) {
    if (!card._ticks) card._ticks = JSON.parse(card.querySelector('script.tick-data').textContent);
    return card._ticks;
  }

  function showTick(mark, pin) {
    const card = mark.closest('section.attempt');
    const panel = card.querySelector('.tick-detail');
    if (!pin && panel.dataset.pinned === 'true') return;
    const tick = ticksOf(card)[Number(mark.dataset.tick)];
    if (!tick) return;
    panel.replaceChildren();
    const head = document.createElement('h4');
    head.textContent = 'tick ' + tick.tickSeq + ' of #' + tick.commandId + ' at ' + (tick.t / 1000).toFixed(2) + 's — ' + tick.classification;
    const reason = document.createElement('p');
    reason.className = 'muted';
    reason.textContent = tick.reason;
    const label = document.createElement('p');
    label.textContent = tick.prompt ? 'as the model saw it (prompt ' + tick.prompt + '):' : 'as delivered to the agent:';
    const text = document.createElement('pre');
    text.className = 'tick-text';
    text.textContent = tick.text;
    const decision = document.createElement('p');
    decision.className = 'decision';
    decision.textContent = 'decision: ' + (tick.decision === null ? 'none recorded' : tick.decision);
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.textContent = 'close';
    close.addEventListener('click', () => { panel.hidden = true; panel.dataset.pinned = 'false'; });
    panel.append(close, head, reason, label, text, decision);
    panel.hidden = false;
    panel.dataset.pinned = pin ? 'true' : 'false';
    for (const other of card.querySelectorAll('g.tick.selected')) other.classList.remove('selected');
    if (pin) mark.classList.add('selected');
  }

  attempts.addEventListener('click', (event) => {
    const mark = event.target.closest && event.target.closest('g.tick');
    if (mark) showTick(mark, true);
  });
  attempts.addEventListener('keydown', (event) => {
    const mark = event.target.closest && event.target.closest('g.tick');
    if (mark && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); showTick(mark, true); }
  });
  attempts.addEventListener('mouseover', (event) => {
    const mark = event.target.closest && event.target.closest('g.tick');
    if (mark) showTick(mark, false);
  });

  function openPermalink() {
    const key = decodeURIComponent(location.hash.slice(1));
    if (key === '') return;
    const card = cardOf(key);
    if (!card) return;
    if (card.hidden) { for (const select of filters) select.value = ''; applyFilters(); }
    for (const other of attempts.querySelectorAll('section.attempt.target')) other.classList.remove('target');
    card.classList.add('target');
    card.scrollIntoView({ block: 'start' });
  }

  for (const select of filters) select.addEventListener('change', applyFilters);
  for (const link of document.querySelectorAll('[data-filter-case]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const select = filters.find((candidate) => candidate.dataset.filter === 'case');
      select.value = link.dataset.filterCase;
      applyFilters();
      attempts.scrollIntoView({ block: 'start' });
    });
  }
  window.addEventListener('hashchange', openPermalink);
  applyFilters();
  openPermalink();

  const liveConfig = document.getElementById('live-config');
  if (!liveConfig) return;
  const live = JSON.parse(liveConfig.textContent);
  const status = document.getElementById('live-status');
  const addOption = (name, value) => {
    const select = filters.find((candidate) => candidate.dataset.filter === name);
    if (select && ![...select.options].some((option) => option.value === value)) select.add(new Option(value, value));
  };
  async function refresh(key) {
    const response = await fetch(live.attempt + '?key=' + encodeURIComponent(key));
    if (!response.ok) return;
    const holder = document.createElement('div');
    holder.innerHTML = await response.text();
    const fresh = holder.querySelector('section.attempt');
    if (!fresh) return;
    const old = cardOf(key);
    if (old) old.replaceWith(fresh); else attempts.append(fresh);
    for (const name of ['case', 'variant', 'class', 'outcome']) addOption(name, fresh.dataset[name]);
    applyFilters();
    status.textContent = 'live · updated ' + key + ' at ' + new Date().toLocaleTimeString();
  }
  const source = new EventSource(live.events);
  source.addEventListener('attempt', (event) => {
    const change = JSON.parse(event.data);
    if (change.run === live.run)
      refresh(change.key).catch(() => { status.textContent = 'live · could not update ' + change.key + ' (it updates at its next change)'; });
  });
  source.addEventListener('open', () => { status.textContent = 'live · connected'; });
  source.addEventListener('error', () => { status.textContent = 'live · reconnecting'; });
})();
`;
