'use strict';

/*
 * The checkout page: pick SKUs, place the order, pay by scanning its Alipay QR code, and watch the order's
 * status change live. Plain browser JavaScript on the service's public API, nothing to build.
 *
 * The member's token: the storefront opens this page with it in the URL fragment (/checkout/#token=...),
 * which browsers never send to a server; the page moves it into sessionStorage at once and out of the
 * address bar and history. A storefront on the same origin may write sessionStorage['shop.memberToken']
 * itself instead. Dev and test builds also offer test tokens. The token only ever travels in the
 * Authorization header; that is why the live status is read with fetch: EventSource cannot send headers.
 */
(() => {
  const TOKEN_KEY = 'shop.memberToken';
  const ORDER_KEY = 'shop.checkout.orderId';
  const SKEW_KEY = 'shop.checkout.clockSkew';
  const RECONNECT_MAX_MS = 15000;

  const $ = (id) => document.getElementById(id);
  const state = {
    token: null,
    devTools: null,
    // The wallets this shop offers (GET /api/payment-channels) and the one the buyer picked.
    channels: null,
    channel: null,
    skus: new Map(),
    order: null,
    stream: null,
    countdown: null,
    // Server time minus this browser's time, so that the countdown is right on a computer whose clock is off.
    skew: Number(sessionStorage.getItem(SKEW_KEY)) || 0,
  };

  // ---- talking to the API ------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(problem) {
      super(problem.detail || problem.title);
      this.problem = problem;
    }
  }

  async function api(method, path, body, headers = {}) {
    const request = { method, cache: 'no-store', headers: { Accept: 'application/json', ...headers } };
    if (state.token) {
      request.headers.Authorization = 'Bearer ' + state.token;
    }
    if (body !== undefined) {
      request.headers['Content-Type'] = 'application/json';
      request.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, request);
    } catch (e) {
      throw new ApiError({ title: 'Service unreachable', detail: 'The request did not reach the service: ' + e.message });
    }
    if (!response.ok) {
      throw new ApiError(await problemOf(response));
    }
    return response.status === 204 ? null : response.json();
  }

  /** The problem+json body of a failed answer, or the best that can be said without one. */
  async function problemOf(response) {
    const type = response.headers.get('Content-Type') || '';
    if (type.includes('json')) {
      try {
        return { ...(await response.json()), httpStatus: response.status };
      } catch (e) {
        // fall through: not the JSON it claims to be
      }
    }
    return { title: response.statusText || 'Request failed', httpStatus: response.status };
  }

  function failed(error) {
    const problem = error instanceof ApiError ? error.problem : { title: 'Unexpected error', detail: String(error) };
    showProblem(problem);
    if (problem.httpStatus === 401) {
      signOut();
    }
  }

  // ---- problems ----------------------------------------------------------------------------------

  const STANDARD_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'instance', 'httpStatus']);

  function showProblem(problem) {
    $('problem-title').textContent = problem.title || 'Request failed';
    $('problem-status').textContent = problem.httpStatus ? '(HTTP ' + problem.httpStatus + ')' : '';
    $('problem-detail').textContent = problem.detail || '';
    const members = $('problem-members');
    members.replaceChildren();
    for (const violation of problem.violations || []) {
      members.append(item(violation.field + ': ' + violation.message));
    }
    for (const [name, value] of Object.entries(problem)) {
      if (!STANDARD_MEMBERS.has(name) && name !== 'violations') {
        members.append(item(name + ': ' + (typeof value === 'object' ? JSON.stringify(value) : value)));
      }
    }
    $('problem').hidden = false;
  }

  function clearProblem() {
    $('problem').hidden = true;
  }

  function item(text) {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  }

  // ---- signing in --------------------------------------------------------------------------------

  function takeTokenFromFragment() {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
      history.replaceState(null, '', location.pathname + location.search);
    }
  }

  function subjectOf(token) {
    try {
      return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).sub || '?';
    } catch (e) {
      return '?';
    }
  }

  function signIn(token) {
    state.token = token;
    sessionStorage.setItem(TOKEN_KEY, token);
    $('member-id').textContent = subjectOf(token);
    $('signed-in').hidden = false;
    $('sign-in').hidden = true;
    const orderId = sessionStorage.getItem(ORDER_KEY);
    if (orderId) {
      resumeOrder(orderId);
    } else {
      showCatalog();
    }
  }

  function signOut() {
    stopFollowing();
    state.token = null;
    state.order = null;
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(ORDER_KEY);
    $('signed-in').hidden = true;
    $('catalog-section').hidden = true;
    $('order-section').hidden = true;
    $('sign-in').hidden = false;
  }

  async function devSignIn() {
    clearProblem();
    try {
      const answer = await api('POST', state.devTools.tokenEndpoint, { memberId: $('dev-member-id').value.trim() });
      signIn(answer.token);
    } catch (e) {
      failed(e);
    }
  }

  async function findDevTools() {
    try {
      const response = await fetch('/dev/checkout', { headers: { Accept: 'application/json' } });
      state.devTools = response.ok ? await response.json() : null;
    } catch (e) {
      state.devTools = null;
    }
    if (state.devTools) {
      $('dev-tools').hidden = false;
      $('dev-member-id').value = 'buyer-' + randomId().slice(0, 8);
    }
  }

  // ---- the catalog and placing an order ----------------------------------------------------------

  async function showCatalog() {
    $('order-section').hidden = true;
    $('catalog-section').hidden = false;
    try {
      const skus = await api('GET', '/api/skus');
      state.skus = new Map(skus.map((sku) => [sku.id, sku]));
      renderCatalog(skus);
    } catch (e) {
      failed(e);
    }
  }

  function renderCatalog(skus) {
    const rows = skus.map((sku) => {
      const row = document.createElement('tr');
      row.dataset.skuId = sku.id;
      const quantity = document.createElement('input');
      quantity.type = 'number';
      quantity.min = '0';
      quantity.max = String(Math.min(sku.available, 999));
      quantity.value = '0';
      quantity.className = 'qty';
      quantity.disabled = sku.available <= 0;
      quantity.setAttribute('aria-label', 'Quantity of ' + sku.name);
      quantity.addEventListener('input', updateTotal);
      row.append(cell(sku.name + ' (' + sku.code + ')'), cell(money(cents(sku.price)), 'number'),
          cell(String(sku.available), 'number'), cell(quantity));
      return row;
    });
    $('catalog').tBodies[0].replaceChildren(...rows);
    updateTotal();
  }

  function cell(content, className) {
    const td = document.createElement('td');
    if (className) {
      td.className = className;
    }
    td.append(content);
    return td;
  }

  function cartLines() {
    return [...document.querySelectorAll('#catalog tbody tr')]
        .map((row) => ({ skuId: Number(row.dataset.skuId), quantity: Number(row.querySelector('.qty').value) }))
        .filter((line) => Number.isInteger(line.quantity) && line.quantity > 0);
  }

  function updateTotal() {
    const lines = cartLines();
    const total = lines.reduce((sum, line) => sum + cents(state.skus.get(line.skuId).price) * line.quantity, 0);
    $('cart-total').textContent = money(total);
    $('place-order').disabled = lines.length === 0;
  }

  async function placeOrder() {
    clearProblem();
    const button = $('place-order');
    button.disabled = true;
    try {
      // One key per click: should the answer get lost, a retry of this request cannot order twice.
      const order = await api('POST', '/api/orders', { items: cartLines() }, { 'Idempotency-Key': randomId() });
      state.skew = Date.parse(order.createdAt) - Date.now();
      sessionStorage.setItem(SKEW_KEY, String(state.skew));
      sessionStorage.setItem(ORDER_KEY, String(order.id));
      showOrder(order);
      follow(order.id);
      await requestPayment();
    } catch (e) {
      failed(e);
      updateTotal();
    }
  }

  // ---- the order ---------------------------------------------------------------------------------

  async function resumeOrder(orderId) {
    try {
      const order = await api('GET', '/api/orders/' + encodeURIComponent(orderId));
      showOrder(order);
      if (order.status === 'PENDING_PAYMENT') {
        follow(order.id);
        await requestPayment();
      }
    } catch (e) {
      sessionStorage.removeItem(ORDER_KEY);
      failed(e);
      showCatalog();
    }
  }

  function showOrder(order) {
    state.order = order;
    $('catalog-section').hidden = true;
    $('order-section').hidden = false;
    $('order-no').textContent = order.orderNo;
    $('order-total').textContent = money(cents(order.totalAmount));
    $('outcome').textContent = '';
    renderStatus();
  }

  // ---- the wallet and its QR code ----------------------------------------------------------------

  const WALLET_NAMES = { alipay: 'Alipay', wechat: 'WeChat Pay' };

  function walletName(channel) {
    return WALLET_NAMES[channel] || channel;
  }

  /** Offers a choice only when the shop takes more than one wallet; the first offered is the default. */
  async function showWallets() {
    if (!state.channels) {
      state.channels = (await api('GET', '/api/payment-channels')).channels;
    }
    if (!state.channels.includes(state.channel)) {
      state.channel = state.channels[0];
    }
    const wallets = $('wallets');
    wallets.querySelectorAll('label').forEach((label) => label.remove());
    state.channels.forEach((channel) => {
      const label = document.createElement('label');
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'wallet';
      radio.value = channel;
      radio.id = 'wallet-' + channel;
      radio.checked = channel === state.channel;
      radio.addEventListener('change', () => {
        state.channel = channel;
        requestPayment();
      });
      label.append(radio, ' ' + walletName(channel));
      wallets.append(label);
    });
    wallets.hidden = state.channels.length < 2;
  }

  async function requestPayment() {
    const order = state.order;
    try {
      await showWallets();
      const channel = state.channel;
      // Each wallet has its own trade: switching asks for the other wallet's code, and both stay payable.
      const payment = await api('POST', '/api/orders/' + order.id + '/payment', { channel });
      if (state.order !== order || order.status !== 'PENDING_PAYMENT' || state.channel !== channel) {
        return;
      }
      document.querySelectorAll('.wallet-name').forEach((name) => { name.textContent = walletName(channel); });
      $('qr-image').alt = walletName(channel) + ' QR code';
      $('qr-image').src = payment.qrImageUrl;
      $('qr-code').textContent = payment.qrCode;
      $('dev-pay').hidden = !state.devTools;
      if (state.devTools) {
        const pages = state.devTools.sandboxBuyerPages || {};
        $('sandbox-link').href = pages[channel] || state.devTools.sandboxBuyerPage;
      }
      $('pay').hidden = false;
      startCountdown();
    } catch (e) {
      failed(e);
    }
  }

  async function cancelOrder() {
    clearProblem();
    $('cancel-order').disabled = true;
    try {
      applyStatus(await api('POST', '/api/orders/' + state.order.id + '/cancel'));
    } catch (e) {
      failed(e);
    } finally {
      $('cancel-order').disabled = false;
    }
  }

  function newOrder() {
    stopFollowing();
    clearProblem();
    state.order = null;
    sessionStorage.removeItem(ORDER_KEY);
    showCatalog();
  }

  /** A status from the live stream or from an answer of the API. */
  function applyStatus(update) {
    const order = state.order;
    if (!order || (update.orderId ?? update.id) !== order.id) {
      return;
    }
    order.status = update.status;
    order.closeReason = update.closeReason;
    renderStatus();
  }

  const OUTCOMES = {
    PAID: 'Paid. Thank you!',
    EXPIRED: 'Closed: the order was not paid by its deadline. Its stock has been released.',
    MEMBER_CANCELLED: 'Cancelled. Its stock has been released.',
  };

  function renderStatus() {
    const order = state.order;
    const status = $('order-status');
    status.dataset.status = order.status;
    status.textContent = words(order.status);
    $('close-reason').textContent = order.closeReason ? '(' + words(order.closeReason) + ')' : '';
    const pending = order.status === 'PENDING_PAYMENT';
    $('cancel-order').hidden = !pending;
    $('new-order').hidden = pending;
    if (!pending) {
      stopCountdown();
      $('pay').hidden = true;
      $('outcome').textContent = OUTCOMES[order.status === 'PAID' ? 'PAID' : order.closeReason] || '';
    }
  }

  function startCountdown() {
    stopCountdown();
    const tick = () => {
      const left = Date.parse(state.order.payDeadline) - (Date.now() + state.skew);
      $('countdown').textContent = left > 0
          ? formatDuration(left) + ' left to pay'
          : 'The time to pay is over; the order is being closed.';
    };
    tick();
    state.countdown = setInterval(tick, 250);
  }

  function stopCountdown() {
    clearInterval(state.countdown);
    state.countdown = null;
  }

  // ---- the live status ---------------------------------------------------------------------------

  /**
   * Follows /api/orders/{id}/events until the order is decided, reconnecting with backoff when the
   * connection drops: every new stream starts with the order as it is, so nothing is missed meanwhile.
   */
  async function follow(orderId) {
    stopFollowing();
    const controller = new AbortController();
    state.stream = controller;
    let wait = 1000;
    while (!controller.signal.aborted) {
      try {
        const response = await fetch('/api/orders/' + orderId + '/events', {
          headers: { Accept: 'text/event-stream', Authorization: 'Bearer ' + state.token },
          cache: 'no-store',
          signal: controller.signal,
        });
        if (!response.ok) {
          failed(new ApiError(await problemOf(response)));
          return;
        }
        $('live').hidden = false;
        wait = 1000;
        await readEvents(response.body, (name, data) => {
          if (name === 'status') {
            applyStatus(JSON.parse(data));
          }
        });
      } catch (e) {
        if (controller.signal.aborted) {
          return;
        }
      }
      $('live').hidden = true;
      if (!state.order || state.order.status !== 'PENDING_PAYMENT') {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, RECONNECT_MAX_MS);
    }
  }

  function stopFollowing() {
    if (state.stream) {
      state.stream.abort();
      state.stream = null;
    }
    $('live').hidden = true;
  }

  /** The text/event-stream format: "field: value" lines, events end at a blank line, ":" lines are comments. */
  async function readEvents(body, onEvent) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        return;
      }
      buffer = (buffer + value).replace(/\r\n/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        dispatch(buffer.slice(0, end), onEvent);
        buffer = buffer.slice(end + 2);
      }
    }
  }

  function dispatch(block, onEvent) {
    let name = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') {
        name = value;
      } else if (field === 'data') {
        data.push(value);
      }
    }
    if (data.length > 0) {
      onEvent(name, data.join('\n'));
    }
  }

  // ---- small things ------------------------------------------------------------------------------

  function words(constant) {
    return constant.replaceAll('_', ' ').toLowerCase();
  }

  function cents(amount) {
    return Math.round(Number(amount) * 100);
  }

  function money(totalCents) {
    return (totalCents / 100).toFixed(2);
  }

  function formatDuration(ms) {
    const seconds = Math.ceil(ms / 1000);
    return Math.floor(seconds / 60) + ':' + String(seconds % 60).padStart(2, '0');
  }

  /** A random UUID; crypto.randomUUID needs a secure context, getRandomValues does not. */
  function randomId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
  }

  // ---- start -------------------------------------------------------------------------------------

  $('dev-sign-in').addEventListener('click', devSignIn);
  $('token-use').addEventListener('click', () => {
    const token = $('token-input').value.trim();
    $('token-input').value = '';
    if (token) {
      signIn(token);
    }
  });
  $('sign-out').addEventListener('click', signOut);
  $('place-order').addEventListener('click', placeOrder);
  $('cancel-order').addEventListener('click', cancelOrder);
  $('new-order').addEventListener('click', newOrder);
  $('problem-dismiss').addEventListener('click', clearProblem);

  takeTokenFromFragment();
  findDevTools().then(() => {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) {
      signIn(token);
    } else {
      signOut();
    }
  });
})();
