# cloudgate's recording stand-in (docs/render-role.md): records the call, applies nothing.
from ansible_collections.kubernetes.core.plugins.module_utils.cloudgate_recorder import RecordingAction


class ActionModule(RecordingAction):
    pass
