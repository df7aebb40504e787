# cloudgate's recording stand-in: the module calls of a role run in check mode are written down, with
# their arguments as Ansible templated them, and nothing reaches a cluster. See docs/render-role.md.
import base64
import json
import os

from ansible.plugins.action import ActionBase

# What a Bootstrap PKI wait (k8s_info on the CA Secret) gets back: a placeholder certificate, never used.
PLACEHOLDER_PEM = "-----BEGIN CERTIFICATE-----\nCLOUDGATE-RECORDING-STAND-IN\n-----END CERTIFICATE-----\n"


def plain(value):
    """Ansible's tagged and unsafe strings as plain text; booleans, numbers and null kept as they are."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


class RecordingAction(ActionBase):
    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super(RecordingAction, self).run(tmp, task_vars)
        task_vars = task_vars or {}
        action = self._task.resolved_action or self._task.action
        record = {
            "action": action,
            "task": self._task.get_name(),
            "host": task_vars.get("inventory_hostname"),
            "check_mode": bool(self._play_context.check_mode),
            "ansible_version": (task_vars.get("ansible_version") or {}).get("full"),
            "args": plain(self._task.args),
        }
        path = os.environ.get("CLOUDGATE_RENDER_RECORD")
        if not path:
            result.update(failed=True, msg="CLOUDGATE_RENDER_RECORD is not set: this stand-in only runs under cloudgate render")
            return result
        # Opened for appending only: cloudgate created the file (0600) before the run.
        with open(path, "a") as out:
            out.write(json.dumps(record) + "\n")
        result["changed"] = not action.endswith("k8s_info")
        if action.endswith("k8s_info"):
            args = self._task.args
            result["resources"] = [{
                "apiVersion": "v1",
                "kind": args.get("kind", "Secret"),
                "metadata": {"name": args.get("name"), "namespace": args.get("namespace")},
                "data": {"tls.crt": base64.b64encode(PLACEHOLDER_PEM.encode()).decode(), "tls.key": ""},
            }]
        return result
