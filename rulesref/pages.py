"""Server-rendered pages for judges' tablets."""

from django.shortcuts import render


def home(request):
    return render(request, "rulesref/home.html", {})
