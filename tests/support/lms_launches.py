"""Launches shaped as five LMSs document theirs, for the tool's launch tests: the claims each
sends beyond the core (roles in its own words, a course with or without a title, a link with a
null title, its vendor claims, the gradebook's and the roster's services or none), from the
examples each publishes:

- Canvas: Instructure's example ID token (resource link title and description ``null``,
  ``lis``, ``https://www.instructure.com/placement``, lineitems and lineitem, NRPS);
- Moodle: the 1EdTech reference implementation's Moodle launch (name parts, Learner with
  institution roles, course type ``[""]``, ``tool_platform``, AGS with a line item, NRPS);
- Blackboard: Anthology's "Sample JWT content" (a UUID deployment, ``locale`` ``en-US``,
  lineitems only, Blackboard's one-time session token claim);
- Brightspace: its ``http://www.brightspace.com`` claim (tenant, org-defined id, username) and a
  CourseOffering context;
- Schoology: its issuer's form (``https://schoology.schoology.com``) and an instructor without
  a name when the school shares none.

The issuer, the client id and the deployment are the test platform's (a registration's), so
the hostile platform (tests/support/lti_hostile.py) signs them; every other claim is the LMS's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dekbovinoj_edu.lti import claims as c

__all__ = ["LMS_LAUNCHES", "LmsLaunch"]

_LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
LEARNER = _LIS + "membership#Learner"
INSTRUCTOR = _LIS + "membership#Instructor"

LmsLaunch = Callable[[bool], dict[str, Any]]
"""The claims of a launch of one LMS (``True``: a teacher's), without the core's iss, aud,
nonce and times."""


def canvas(teacher: bool) -> dict[str, Any]:
    base = "https://school.instructure.com/api/lti/courses/1179"
    return {
        "sub": "82c59950-9ec3-4ae9-ad32-208c158143e0" if teacher else "535fa085f22b",
        "name": "Weston Dransfield" if teacher else "Astrid Lindqvist",
        "given_name": "Weston" if teacher else "Astrid",
        "family_name": "Dransfield" if teacher else "Lindqvist",
        "email": "teacher@school.example" if teacher else "astrid@school.example",
        "locale": "en",
        c.RESOURCE_LINK: {"id": "7f956bcc8f67cd076ae464862ce83596a1bb3293",
                          "description": None, "title": None},
        c.CONTEXT: {"id": "4dde05e8ca1973bcca9bffc13e1548820eee93a3", "label": "MATH4",
                    "title": "Mathematics 4", "type": [_LIS + "course#CourseOffering"]},
        c.ROLES: [_LIS + "institution/person#Instructor", INSTRUCTOR] if teacher
        else [_LIS + "institution/person#Student", LEARNER],
        "https://purl.imsglobal.org/spec/lti/claim/lis": {
            "person_sourcedid": None, "course_offering_sourcedid": "MATH4-2026"},
        "https://www.instructure.com/placement": "assignment_selection",
        c.AGS_ENDPOINT: {"scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                                   "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                         "lineitems": f"{base}/line_items",
                         "lineitem": f"{base}/line_items/31"},
        c.NRPS: {"context_memberships_url": f"{base}/names_and_roles",
                 "service_versions": ["2.0"]},
        c.CUSTOM: {},
    }  # fmt: skip


def moodle(teacher: bool) -> dict[str, Any]:
    base = "https://moodle.school.example/mod/lti/services.php/56305"
    return {
        "sub": "11" if teacher else "27",
        "name": "Mervin Graham Kihn" if teacher else "Bo Ek",
        "given_name": "Mervin" if teacher else "Bo",
        "family_name": "Kihn" if teacher else "Ek",
        "middle_name": "Graham" if teacher else "",
        c.RESOURCE_LINK: {"id": "79550", "title": "Ten cows", "description": ""},
        c.CONTEXT: {"id": "56305", "label": "M4", "title": "Maths year 4", "type": [""]},
        c.ROLES: [INSTRUCTOR, _LIS + "institution/person#Faculty"] if teacher
        else [LEARNER, _LIS + "institution/person#Student"],
        "https://purl.imsglobal.org/spec/lti/claim/tool_platform": {
            "name": "Moodle", "product_family_code": "moodle", "version": "2024100700",
            "guid": "moodle.school.example"},
        "https://purl.imsglobal.org/spec/lti/claim/launch_presentation": {
            "locale": "sv", "document_target": "iframe",
            "return_url": "https://moodle.school.example/mod/lti/return.php?course=56305"},
        "https://purl.imsglobal.org/spec/lti/claim/ext": {"user_username": "bo.ek",
                                                          "lms": "moodle-2"},
        c.AGS_ENDPOINT: {"scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                                   "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
                                   "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                         "lineitems": f"{base}/lineitems?type_id=3",
                         "lineitem": f"{base}/lineitems/54009/lineitem?type_id=3"},
        c.NRPS: {"context_memberships_url": f"{base}/memberships?type_id=3",
                 "service_versions": ["1.0", "2.0"]},
        c.CUSTOM: {"dkb_level": "1", "dkb_count": "5"},
    }  # fmt: skip


def blackboard(teacher: bool) -> dict[str, Any]:
    return {
        "sub": "561ac4762b5142a0b1d3ed1aa40789c1" if teacher else "9f0c1e",
        "name": "Tess Berg" if teacher else "Chen Wei",
        "locale": "en-US",
        c.RESOURCE_LINK: {"id": "_2719_1", "title": "Ten cows"},
        c.CONTEXT: {"id": "_4_1", "label": "MATH-4", "title": "Maths 4",
                    "type": [_LIS + "course#CourseOffering"]},
        c.ROLES: [INSTRUCTOR] if teacher else [LEARNER],
        "https://purl.imsglobal.org/spec/lti/claim/tool_platform": {
            "name": "Blackboard, Inc.", "product_family_code": "BlackboardLearn",
            "guid": "83656022865f4f47a898b986399a01a8"},
        "https://blackboard.com/lti/claim/one_time_session_token": "8c7a9a3d,u,c",
        c.AGS_ENDPOINT: {"lineitems": "https://learn.blackboard.com/learn/api/v1/lti/courses/_4_1/lineItems",
                         "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                                   "https://purl.imsglobal.org/spec/lti-ags/scope/score",
                                   "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"]},
    }  # fmt: skip


def brightspace(teacher: bool) -> dict[str, Any]:
    return {
        "sub": "b0c9b7d2-3f4e-4b6b-9b3a-1c2d3e4f5a6b_6606" if teacher else "b0c9_6612",
        "name": "Kim Park" if teacher else "Ana-María Lindström-Nakamura Ortega",
        "given_name": "Kim" if teacher else "Ana-María",
        "family_name": "Park" if teacher else "Lindström-Nakamura Ortega",
        c.RESOURCE_LINK: {"id": "d2l-6606-18", "title": "Ten cows"},
        c.CONTEXT: {"id": "6606", "label": "MA4", "title": "Maths 4 — autumn",
                    "type": [_LIS + "course#CourseOffering"]},
        c.ROLES: [INSTRUCTOR, _LIS + "institution/person#Instructor"] if teacher
        else [LEARNER, _LIS + "institution/person#Student"],
        "http://www.brightspace.com": {"tenant_id": "3f1c0b8e", "org_defined_id": "S-1042",
                                       "user_id": 6612, "username": "ana.lindstrom"},
        c.NRPS: {"context_memberships_url":
                 "https://school.brightspace.com/d2l/api/lti/nrps/2.0/deployment/x/orgunit/6606/memberships",
                 "service_versions": ["2.0"]},
    }  # fmt: skip


def schoology(teacher: bool) -> dict[str, Any]:
    return {
        "sub": "85041" if teacher else "85042",
        **({} if teacher else {"name": "Li Na"}),  # the school shares no teacher's name
        c.RESOURCE_LINK: {"id": "7254981732", "title": "Ten cows"},
        c.CONTEXT: {"id": "7254981001", "title": "Maths 4: Section 1"},
        c.ROLES: [INSTRUCTOR] if teacher else [LEARNER],
        c.AGS_ENDPOINT: {"scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                         "lineitems": "https://lti-service.svc.schoology.com/lti-service/tool/x/services/ags/v2p0/7254981001/lineitems"},
    }  # fmt: skip


LMS_LAUNCHES: dict[str, LmsLaunch] = {
    "canvas": canvas,
    "moodle": moodle,
    "blackboard": blackboard,
    "brightspace": brightspace,
    "schoology": schoology,
}
"""Each LMS's launch claims, by the LMS's name."""
