// @ts-check
/**
 * The console's actions: requeue DEAD rows, replay dead letters (a dry run first, which shows
 * what would be replayed), skip a gap (a reason is required). Each opens a dialog that asks for
 * confirmation and shows the API's answer; the services write the audit log, naming the
 * operator token that called.
 */
import { api, byId, el, hooks, services } from './ops.js';

var dialog = byId('action-dialog', HTMLDialogElement);
var confirmButton = byId('action-confirm', HTMLButtonElement);
var cancelButton = byId('action-cancel', HTMLButtonElement);
/** @type {(() => Promise<void>) | null} */
var pending = null;

function open(title, nodes, confirmLabel, onConfirm) {
  byId('action-title').textContent = title;
  var body = byId('action-body');
  body.replaceChildren.apply(body, nodes);
  byId('action-result').replaceChildren();
  confirmButton.textContent = confirmLabel;
  confirmButton.hidden = false;
  confirmButton.disabled = false;
  cancelButton.textContent = 'Cancel';
  pending = onConfirm;
  dialog.showModal();
}
function result(nodes) {
  var box = byId('action-result');
  box.replaceChildren.apply(box, [].concat(nodes));
}
function finished(nodes) {
  result(nodes);
  confirmButton.hidden = true;
  cancelButton.textContent = 'Close';
  pending = null;
  hooks.reload();
}
function answer(r) {
  return r.ok
    ? []
    : [
        el(
          'p',
          { class: 'bad' },
          'HTTP ' +
            r.status +
            ': ' +
            (r.body && r.body.message ? [].concat(r.body.message).join('; ') : 'failed'),
        ),
      ];
}
/**
 * The reason's label and field.
 * @param {boolean} required
 * @returns {HTMLElement[]}
 */
function reasonField(required) {
  return [
    el(
      'label',
      { for: 'action-reason' },
      required ? 'Reason (required)' : 'Reason (optional, kept in the audit log)',
    ),
    el('textarea', {
      id: 'action-reason',
      name: 'reason',
      required: required ? 'required' : null,
      minlength: required ? '3' : null,
      maxlength: '500',
    }),
  ];
}
function reason() {
  var value = byId('action-reason', HTMLTextAreaElement).value.trim();
  return value ? value : undefined;
}

cancelButton.addEventListener('click', function () {
  dialog.close();
});
byId('action-form').addEventListener('submit', function (event) {
  event.preventDefault();
  if (!pending) return;
  if (!byId('action-form', HTMLFormElement).reportValidity()) return;
  confirmButton.disabled = true;
  result([el('p', {}, 'working…')]);
  pending().catch(function (error) {
    finished([el('p', { class: 'bad' }, 'failed: ' + error.message)]);
  });
});

export function requeue(service, filter, what) {
  open(
    'Requeue DEAD rows at ' + service,
    [
      el(
        'p',
        {},
        'Requeue ' +
          what +
          '? The rows go back to NEW, due now, and the relay publishes them again; consumers absorb what they applied before.',
      ),
      ...reasonField(false),
    ],
    'Requeue',
    function () {
      var body = Object.assign({}, filter, { reason: reason() });
      return api(services[service] + '/outbox/dead/requeue', { method: 'POST', body: body }).then(
        function (r) {
          finished(
            r.ok
              ? [
                  el(
                    'p',
                    { 'data-testid': 'action-outcome' },
                    'Requeued ' + r.body.requeued + ' row(s).',
                  ),
                ]
              : answer(r),
          );
        },
      );
    },
  );
}

export function replay(service, selector, what) {
  var path = services[service] + '/inbox/dead-letters/replay';
  open(
    'Replay dead letters at ' + service,
    [el('p', {}, 'Dry run for ' + what + '…'), ...reasonField(false)],
    'Replay',
    null,
  );
  confirmButton.disabled = true;
  api(path, { method: 'POST', body: Object.assign({}, selector, { dryRun: true }) }).then(
    function (r) {
      if (!r.ok) {
        finished(answer(r));
        return;
      }
      var would = r.body.wouldReplay || [];
      result([
        el(
          'p',
          { 'data-testid': 'dry-run' },
          'Dry run: ' +
            r.body.matched +
            ' matched; ' +
            would.length +
            ' would be replayed' +
            (would.length ? ' to ' + would[0].targetTopic : '') +
            ', ' +
            r.body.skippedAlreadyReplayed +
            ' skipped as replayed before, ' +
            r.body.skippedNotOwnTopic.length +
            " skipped as not from this consumer's topics.",
        ),
        el(
          'ul',
          {},
          would.map(function (m) {
            return el('li', {}, 'dead letter ' + m.partition + ':' + m.offset);
          }),
        ),
      ]);
      if (would.length === 0) {
        confirmButton.hidden = true;
        cancelButton.textContent = 'Close';
        return;
      }
      confirmButton.textContent = 'Replay ' + would.length + ' message(s)';
      confirmButton.disabled = false;
      pending = function () {
        var body = Object.assign({}, selector, { reason: reason() });
        return api(path, { method: 'POST', body: body }).then(function (done) {
          finished(
            done.ok
              ? [
                  el(
                    'p',
                    { 'data-testid': 'action-outcome' },
                    'Replayed ' + done.body.replayed.length + ' message(s) to the retry topic.',
                  ),
                ]
              : answer(done),
          );
        });
      };
    },
  );
}

export function skip(service, gap, version) {
  open(
    'Skip a missing version at ' + service,
    [
      el(
        'p',
        {},
        'Skip version ' +
          version +
          ' of ' +
          gap.aggregateType +
          ' ' +
          gap.aggregateId +
          '? The parked versions ' +
          gap.parkedVersions.join(', ') +
          ' are applied right after. Do this only when the event will never come.',
      ),
      ...reasonField(true),
    ],
    'Skip version ' + version,
    function () {
      var body = {
        aggregateType: gap.aggregateType,
        aggregateId: gap.aggregateId,
        version: version,
        reason: reason(),
      };
      return api(services[service] + '/inbox/gaps/skip', { method: 'POST', body: body }).then(
        function (r) {
          finished(
            r.ok
              ? [
                  el(
                    'p',
                    { 'data-testid': 'action-outcome' },
                    'Skipped version ' +
                      r.body.skippedVersion +
                      '; ' +
                      r.body.drained +
                      ' parked event(s) applied.',
                  ),
                ]
              : answer(r),
          );
        },
      );
    },
  );
}
