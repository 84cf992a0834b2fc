// syncbench: one small record at a time into a zero-filled, synced file, made durable three
// ways (MODE 0: pwrite + fdatasync; 1: O_DIRECT pwrite of the block + fdatasync; 2: one
// O_DIRECT | O_DSYNC pwrite); prints the p50, p90 and CPU an append.
//   cc -O2 -o syncbench syncbench.c && ./syncbench MODE COUNT FILE
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/uio.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static double cpu(){struct rusage r;getrusage(RUSAGE_SELF,&r);return (r.ru_utime.tv_sec+r.ru_stime.tv_sec)*1e6+r.ru_utime.tv_usec+r.ru_stime.tv_usec;}
int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int mode=atoi(argv[1]); int n=atoi(argv[2]); const char*path=argv[3];
  int flags=O_RDWR|O_CREAT; if(mode>=1) flags|=O_DIRECT; if(mode==2) flags|=O_DSYNC;
  unlink(path);
  int fd=open(path,flags,0600); if(fd<0){perror("open");return 1;}
  if(fallocate(fd,0,0,64<<20)){perror("fallocate");}
  // zero-fill so blocks are written (not unwritten extents)
  void*buf=NULL; if(posix_memalign(&buf,4096,1<<20)){perror("posix_memalign");return 1;} memset(buf,0,1<<20);
  for(int i=0;i<64;i++) pwrite(fd,buf,1<<20,(off_t)i<<20);
  fsync(fd);
  double*lat=malloc(n*sizeof(double)); double c0=cpu(); double t0=now();
  off_t off=0;
  for(int i=0;i<n;i++){
    double a=now();
    memset(buf,i,512);
    if(mode==0){ pwrite(fd,buf,300,off); fdatasync(fd); off+=300; }
    else { off_t blk=off&~4095; pwrite(fd,buf,4096,blk); if(mode==1) fdatasync(fd); off+=300; }
    lat[i]=now()-a;
  }
  double cp=cpu()-c0, el=now()-t0;
  qsort(lat,n,sizeof(double),cmp);
  printf("mode %d: p50 %.1f us p90 %.1f  cpu/op %.1f us  wall/op %.1f\n",mode,lat[n/2],lat[n*9/10],cp/n,el/n);
  return 0;
}
