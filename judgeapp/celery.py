"""The Celery application; judgeapp.apps imports it when Django is ready."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judgeapp.settings")

app = Celery("judgeapp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
