# cloudgate's callback (docs/render-role.md): each failed or unreachable task, and the end of the run,
# appended to the record the recording stand-ins write. Only the task, the host and Ansible's message.
import json
import os

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = r'''
name: record
type: aggregate
short_description: records where a cloudgate render run failed
requirements:
  - CLOUDGATE_RENDER_RECORD names the record file
'''


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'cloudgate.render.record'
    CALLBACK_NEEDS_ENABLED = True

    def _write(self, record):
        path = os.environ.get("CLOUDGATE_RENDER_RECORD")
        if path:
            with open(path, "a") as out:
                out.write(json.dumps(record) + "\n")

    def _failure(self, event, result, ignore_errors=False):
        if ignore_errors:
            return
        self._write({
            "event": event,
            "task": result._task.get_name(),
            "action": result._task.resolved_action or result._task.action,
            "host": result._host.get_name(),
            # An include_tasks whose file cannot be loaded fails with "reason", not "msg".
            "msg": str(result._result.get("msg") or result._result.get("reason") or ""),
        })

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._failure("failed", result, ignore_errors)

    def v2_runner_on_unreachable(self, result):
        self._failure("unreachable", result)

    def v2_playbook_on_stats(self, stats):
        self._write({"event": "end", "hosts": sorted(stats.processed.keys())})
