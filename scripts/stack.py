"""The deployed stack on this machine, where Docker is absent (README "Deploying"): nginx in
front (Debian's package), gunicorn behind it on a unix socket, a Celery worker and Celery beat,
against the PostgreSQL and Redis that DATABASE_URL and CELERY_BROKER_URL name.

The same files drive it as drive docker/compose.yaml: the environment of docker/.env (else
docker/.env.example), nginx's docker/nginx/judgeapp.conf.template and selfsigned.sh, gunicorn's
command from docker/Dockerfile and docker/gunicorn.conf.py, the worker's and beat's commands from
compose.yaml. Only what a container would have (paths, ports) is this machine's own.

    scripts/stack start     set up (secret, certificate, static files, migrate, import the shipped
                            rules), start the four processes, wait until healthy over https
    scripts/stack stop      stop them
    scripts/stack status    what runs, and the health answer

Environment (the environment wins over docker/.env):
    STACK_DIR           state: logs, pids, certificate, static files, uploads (default .stack/)
    STACK_HTTPS_PORT    8443; STACK_HTTP_PORT 8080 (plain HTTP: health, and a redirect)
    DATABASE_URL        postgres://postgres@127.0.0.1:5432/judgeapp_stack
    CELERY_BROKER_URL   redis://127.0.0.1:6379/0
    STACK_RULES         documents imported at start (default rules/, the current versions; empty:
                        none)
    JUDGEAPP_TLS_CERT, JUDGEAPP_TLS_KEY   a real certificate (default: self-signed, made once)
    GUNICORN_WORKERS, GUNICORN_THREADS    as in docker/gunicorn.conf.py
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCKER = REPO / "docker"
VENV_BIN = REPO / ".venv" / "bin"
PROCESSES = ("gunicorn", "worker", "beat", "nginx")
# What compose's environment: sets for the app containers, as they hold on this machine.
NOT_FROM_ENV_FILE = {"RULES_DIR", "COMPOSE_PROJECT_NAME", "POSTGRES_PASSWORD", "HTTP_PORT"}


class StackError(RuntimeError):
    pass


def env_file() -> Path:
    own = DOCKER / ".env"
    return own if own.is_file() else DOCKER / ".env.example"


def read_env_file(path: Path) -> dict[str, str]:
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


class Stack:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        environ = dict(os.environ if environ is None else environ)
        self.dir = Path(environ.get("STACK_DIR") or REPO / ".stack").resolve()
        self.https_port = int(environ.get("STACK_HTTPS_PORT", "8443"))
        self.http_port = int(environ.get("STACK_HTTP_PORT", "8080"))
        self.python = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
        self.socket = self.dir / "run" / "gunicorn.sock"
        file_values = {
            key: value
            for key, value in read_env_file(env_file()).items()
            if key not in NOT_FROM_ENV_FILE
        }
        env = {**file_values, **environ}
        env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/judgeapp_stack")
        env.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
        env.setdefault("DJANGO_SECRET_KEY_FILE", str(self.dir / "secret_key"))
        env.setdefault("JUDGEAPP_TLS_CERT", str(self.dir / "certs" / "selfsigned.crt"))
        env.setdefault("JUDGEAPP_TLS_KEY", str(self.dir / "certs" / "selfsigned.key"))
        env.update(
            {
                # as compose's x-app sets them, with this machine's paths
                "JUDGEAPP_STATIC_ROOT": str(self.dir / "static"),
                "JUDGEAPP_MEDIA_ROOT": env.get("JUDGEAPP_MEDIA_ROOT") or str(self.dir / "media"),
                "JUDGEAPP_PROXY_COUNT": "1",
                "GUNICORN_BIND": f"unix:{self.socket}",
                "PATH": f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}",
                "PYTHONUNBUFFERED": "1",
            }
        )
        self.env = env
        self.rules = environ.get("STACK_RULES", str(REPO / "rules"))
        self.host = self.allowed_host()

    # --- what compose and the image say -------------------------------------------------------

    def allowed_host(self) -> str:
        """The Host every probe sends: the first of DJANGO_ALLOWED_HOSTS (docker/healthcheck.py)."""
        first = self.env.get("DJANGO_ALLOWED_HOSTS", "").split(",")[0].strip().lstrip(".")
        return "localhost" if first in ("", "*") else first

    def gunicorn_command(self) -> list[str]:
        """The image's CMD (docker/Dockerfile)."""
        for line in (DOCKER / "Dockerfile").read_text().splitlines():
            if line.startswith("CMD "):
                command = json.loads(line[4:])
                return [self.python, "-m", *command]
        raise StackError("docker/Dockerfile has no CMD line")

    def compose_command(self, service: str) -> list[str]:
        """A service's command in docker/compose.yaml, run by a shell as the container's would be
        ($$ in compose is $ for the shell)."""
        import yaml

        compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
        command = compose["services"][service]["command"]
        if isinstance(command, str):
            command = shlex.split(command)
        command = [part.replace("$$", "$") for part in command]
        if service == "beat":  # its schedule file is this stack's own (compose: /tmp in the box)
            command = ["sh", "-c", shlex.join(command) + ' --schedule "$STACK_BEAT_SCHEDULE"']
        return command

    # --- set-up ---------------------------------------------------------------------------------

    def nginx_binary(self) -> str:
        found = shutil.which("nginx") or (
            "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
        )
        if found:
            return found
        if os.geteuid() == 0 and shutil.which("apt-get"):
            print("stack: installing Debian's nginx", flush=True)
            quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            subprocess.run(["apt-get", "update", "-qq"], check=False, env=quiet)
            subprocess.run(
                ["apt-get", "install", "-y", "-qq", "nginx"],
                check=False,
                env=quiet,
                stdout=subprocess.DEVNULL,
            )
            if Path("/usr/sbin/nginx").exists():
                return "/usr/sbin/nginx"
        raise StackError(
            "nginx is not installed and cannot be installed here (needs root and apt-get): "
            "install it (Debian: apt-get install nginx) or run docker/compose.yaml"
        )

    def render_nginx(self, nginx: str) -> Path:
        """docker/nginx/judgeapp.conf.template filled in as compose's nginx image does (only the
        names set), inside a main configuration of this stack's own (its pid, logs, temp files)."""
        values = {
            "JUDGEAPP_UPSTREAM": f"unix:{self.socket}",
            "NGINX_HTTP_PORT": str(self.http_port),
            "NGINX_HTTPS_PORT": str(self.https_port),
            "JUDGEAPP_HTTPS_PORT": str(self.https_port),
            "JUDGEAPP_TLS_CERT": self.env["JUDGEAPP_TLS_CERT"],
            "JUDGEAPP_TLS_KEY": self.env["JUDGEAPP_TLS_KEY"],
            "JUDGEAPP_STATIC_ROOT": self.env["JUDGEAPP_STATIC_ROOT"],
        }
        template = (DOCKER / "nginx" / "judgeapp.conf.template").read_text()
        site = re.sub(
            r"\$\{([A-Z_][A-Z0-9_]*)\}", lambda m: values.get(m.group(1), m.group(0)), template
        )
        missing = re.findall(r"\$\{([A-Z_][A-Z0-9_]*)\}", site)
        if missing:
            raise StackError(f"nginx template names unknown values: {sorted(set(missing))}")
        conf = self.dir / "nginx"
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (conf / "temp" / temp).mkdir(parents=True, exist_ok=True)
        (conf / "judgeapp.conf").write_text(site)
        mime = Path(nginx).resolve().parent.parent / "etc" / "nginx" / "mime.types"
        mime = mime if mime.exists() else Path("/etc/nginx/mime.types")
        user = "user nobody nogroup;\n" if os.geteuid() == 0 else ""
        main = f"""# scripts/stack: nginx's main configuration; the site is docker/nginx's template.
{user}worker_processes 2;
daemon off;
pid {self.dir}/run/nginx.pid;
error_log {self.dir}/logs/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    include {mime};
    default_type application/octet-stream;
    sendfile on;
    access_log {self.dir}/logs/nginx-access.log;
    client_body_temp_path {conf}/temp/body;
    proxy_temp_path {conf}/temp/proxy;
    fastcgi_temp_path {conf}/temp/fastcgi;
    uwsgi_temp_path {conf}/temp/uwsgi;
    scgi_temp_path {conf}/temp/scgi;
    include {conf}/judgeapp.conf;
}}
"""
        (conf / "nginx.conf").write_text(main)
        check = subprocess.run(
            [nginx, "-t", "-q", "-c", str(conf / "nginx.conf")], capture_output=True, text=True
        )
        if check.returncode != 0:
            raise StackError(f"nginx refuses the configuration: {check.stderr.strip()}")
        return conf / "nginx.conf"

    def manage(self, *args: str) -> None:
        run = subprocess.run(
            [self.python, "manage.py", *args],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise StackError(f"manage.py {' '.join(args)} failed:\n{run.stdout}{run.stderr}")

    def setup(self) -> None:
        """What compose's `setup` service does: the secret, the static files, the database."""
        for sub in ("run", "logs", "certs", "static", "media"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o755)
        secret = Path(self.env["DJANGO_SECRET_KEY_FILE"])
        if not self.env.get("DJANGO_SECRET_KEY") and not secret.exists():
            secret.write_text(secrets.token_urlsafe(50))
            secret.chmod(0o600)
        hosts = self.env.get("DJANGO_ALLOWED_HOSTS", "").split(",")
        subprocess.run(
            [
                "sh",
                str(DOCKER / "nginx" / "selfsigned.sh"),
                self.env["JUDGEAPP_TLS_CERT"],
                self.env["JUDGEAPP_TLS_KEY"],
                *[h.strip() for h in hosts],
            ],
            check=True,
        )
        ensure_postgres_database(self.env["DATABASE_URL"])
        self.manage("collectstatic", "--noinput", "-v0")
        self.manage("migrate", "--noinput", "-v0")
        if self.rules.strip():
            self.manage("import_rules", *self.rules.split(), "--publish")

    # --- processes ------------------------------------------------------------------------------

    def pidfile(self, name: str) -> Path:
        return self.dir / "run" / f"{name}.pid"

    def running(self) -> dict[str, int]:
        alive = {}
        for name in PROCESSES:
            try:
                pid = int(self.pidfile(name).read_text())
                os.kill(pid, 0)
            except (OSError, ValueError):
                continue
            alive[name] = pid
        return alive

    def spawn(self, name: str, command: list[str], extra: dict[str, str] | None = None) -> None:
        log = open(self.dir / "logs" / f"{name}.log", "ab")
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env={**self.env, **(extra or {})},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stop signals all of it
        )
        self.pidfile(name).write_text(str(process.pid))

    def start(self, timeout: float | None = None) -> tuple[float, float]:
        """Set up, start, and wait until health answers 200 through nginx over https (at most
        STACK_TIMEOUT seconds, 120 by default); returns the seconds the set-up took, and the
        seconds from starting the processes to healthy."""
        if timeout is None:
            timeout = float(self.env.get("STACK_TIMEOUT", "120"))
        if self.running():
            raise StackError(f"already running in {self.dir} ({self.running()}): stop it first")
        nginx = self.nginx_binary()
        began = time.monotonic()
        self.setup()
        conf = self.render_nginx(nginx)
        started = time.monotonic()
        self.socket.unlink(missing_ok=True)
        self.spawn("gunicorn", self.gunicorn_command())
        self.spawn("worker", self.compose_command("worker"))
        self.spawn(
            "beat",
            self.compose_command("beat"),
            {"STACK_BEAT_SCHEDULE": str(self.dir / "run" / "beat-schedule")},
        )
        self.spawn("nginx", [nginx, "-c", str(conf), "-p", str(self.dir / "nginx")])
        deadline = started + timeout
        last = ""
        while time.monotonic() < deadline:
            missing = set(PROCESSES) - set(self.running())
            if missing:
                self.stop()
                raise StackError(f"{sorted(missing)} exited at start: see {self.dir}/logs/")
            status, last = self.health()
            if status == 200:
                return started - began, time.monotonic() - started
            time.sleep(0.5)
        self.stop()
        raise StackError(f"not healthy within {timeout:.0f} s (last answer: {last})")

    def url(self, path: str) -> str:
        return f"https://{self.host}:{self.https_port}{path}"

    def health(self) -> tuple[int, str]:
        """GET /api/v1/health through nginx (https, this stack's certificate), with an allowed
        Host, to 127.0.0.1."""
        request = urllib.request.Request(
            f"https://127.0.0.1:{self.https_port}/api/v1/health", headers={"Host": self.host}
        )
        context = ssl._create_unverified_context()
        try:
            with urllib.request.urlopen(request, timeout=3, context=context) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")
        except OSError as exc:
            return 0, str(exc)

    def stop(self, grace: float = 20) -> list[str]:
        stopped = []
        alive = self.running()
        # nginx first (no new requests), then the web, then the worker and beat
        for name in ("nginx", "gunicorn", "worker", "beat"):
            if name in alive:
                try:
                    os.killpg(alive[name], signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + grace
        for name, pid in alive.items():
            while time.monotonic() < deadline and _alive(pid):
                time.sleep(0.2)
            if _alive(pid):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.pidfile(name).unlink(missing_ok=True)
            stopped.append(name)
        return stopped


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def ensure_postgres_database(url: str) -> None:
    """Create DATABASE_URL's PostgreSQL database when it is missing (compose's postgres image
    creates its own)."""
    if not url.startswith(("postgres://", "postgresql://")):
        return
    import psycopg

    server, name = url.split("?", 1)[0].rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres".replace("postgres://", "postgresql://", 1)) as conn:
        conn.autocommit = True
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def main(argv: list[str]) -> int:
    action = argv[1] if len(argv) > 1 else "status"
    stack = Stack()
    try:
        if action == "start":
            setup, took = stack.start()
            print(
                f"stack: set up in {setup:.1f} s, then healthy {took:.1f} s after the processes "
                f"started: {stack.url('/')} (self-signed unless "
                f"JUDGEAPP_TLS_CERT names a real certificate); logs in {stack.dir}/logs/; "
                "stop with scripts/stack stop"
            )
        elif action == "stop":
            print(f"stack: stopped {', '.join(stack.stop()) or 'nothing (not running)'}")
        elif action == "status":
            alive = stack.running()
            status, body = stack.health() if alive else (0, "not running")
            print(f"stack: running {alive or 'nothing'}; health {status} {body}")
            return 0 if status == 200 else 1
        else:
            print(__doc__)
            return 2
    except StackError as exc:
        print(f"stack: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
