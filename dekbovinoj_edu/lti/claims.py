"""The LTI 1.3 claims this tool reads, named once (1EdTech LTI Core 1.3, section 5).

>>> MESSAGE_TYPE
'https://purl.imsglobal.org/spec/lti/claim/message_type'
>>> is_teacher(("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",))
True
>>> is_teacher(("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",))
False
>>> is_teacher(("http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",))
True
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "AGS_ENDPOINT",
    "CONTEXT",
    "CUSTOM",
    "DEEP_LINKING_REQUEST",
    "DEEP_LINKING_SETTINGS",
    "DEPLOYMENT_ID",
    "LTI_VERSION",
    "MESSAGE_TYPE",
    "MESSAGE_TYPES",
    "NRPS",
    "RESOURCE_LINK",
    "RESOURCE_LINK_REQUEST",
    "ROLES",
    "TARGET_LINK_URI",
    "TEACHER_ROLES",
    "VERSION",
    "is_teacher",
]

_LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = _LTI + "message_type"
VERSION = _LTI + "version"
DEPLOYMENT_ID = _LTI + "deployment_id"
TARGET_LINK_URI = _LTI + "target_link_uri"
RESOURCE_LINK = _LTI + "resource_link"
ROLES = _LTI + "roles"
CONTEXT = _LTI + "context"
CUSTOM = _LTI + "custom"
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"

LTI_VERSION = "1.3.0"
"""The one version of a launch this tool takes."""
RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
MESSAGE_TYPES = frozenset({RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST})
"""The messages this tool takes: a launch from a link, and a teacher picking a puzzle set."""

_LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
TEACHER_ROLES = frozenset(
    {
        _LIS + "membership#Instructor",
        _LIS + "membership#Administrator",
        _LIS + "membership#ContentDeveloper",
        _LIS + "membership/Instructor#TeachingAssistant",  # Canvas's and Moodle's TAs
        _LIS + "institution/person#Administrator",
        _LIS + "system/person#Administrator",
        # the short forms LTI 1.3 allows for context roles (Core 1.3, A.2.3.1)
        "Instructor",
        "Administrator",
    }
)
"""The roles that open the teacher's page; every other role is a student's."""


def is_teacher(roles: Iterable[str]) -> bool:
    """Whether a launch with ``roles`` is a teacher's (Instructor or Administrator)."""
    return any(role in TEACHER_ROLES for role in roles)
