#!/usr/bin/python
# cloudgate's recording stand-in: the action plugin of the same name does the work on the controller.
DOCUMENTATION = r'''
module: synchronize
short_description: cloudgate's recording stand-in for vexxhost.kubernetes.synchronize (records the call, applies nothing)
'''
from ansible.module_utils.basic import AnsibleModule


def main():
    module = AnsibleModule(argument_spec={}, supports_check_mode=True, bypass_checks=True)
    module.fail_json(msg="cloudgate's recording stand-in never runs on a host")


if __name__ == '__main__':
    main()
